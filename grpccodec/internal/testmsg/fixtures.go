package testmsg

// The constructors below build the values of the xlang fixtures
// numeric_struct_id, sample_id and media_content_id (Fory's benchmark data,
// CreateMediaContent and friends), so tests exchange the same payloads the
// conformance suite checks byte for byte.

// NewNumericStruct returns the numeric_struct_id value.
func NewNumericStruct() *NumericStruct {
	return &NumericStruct{
		F1: -12345, F2: 987654321, F3: -31415, F4: 27182818,
		F5: -32000, F6: 1000000, F7: -999999999, F8: 42,
		F9: 123456789, F10: -42, F11: 31415926, F12: -27182818,
	}
}

// NewSample returns the sample_id value.
func NewSample() *Sample {
	return &Sample{
		IntValue:          123,
		LongValue:         1230000,
		FloatValue:        12.345,
		DoubleValue:       1.234567,
		ShortValue:        12345,
		CharValue:         33,
		BooleanValue:      true,
		IntValueBoxed:     321,
		LongValueBoxed:    3210000,
		FloatValueBoxed:   54.321,
		DoubleValueBoxed:  7.654321,
		ShortValueBoxed:   32100,
		CharValueBoxed:    36,
		BooleanValueBoxed: false,
		IntArray:          []int32{-1234, -123, -12, -1, 0, 1, 12, 123, 1234},
		LongArray:         []int64{-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400},
		FloatArray:        []float32{-12.34, -12.3, -12, -1, 0, 1, 12, 12.3, 12.34},
		DoubleArray:       []float64{-1.234, -1.23, -12, -1, 0, 1, 12, 1.23, 1.234},
		ShortArray:        []int32{-1234, -123, -12, -1, 0, 1, 12, 123, 1234},
		CharArray:         []int32{97, 115, 100, 102, 65, 83, 68, 70},
		BooleanArray:      []bool{true, false, false, true},
		String:            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	}
}

// NewMediaContent returns the media_content_id value.
func NewMediaContent() *MediaContent {
	return &MediaContent{
		Media: Media{
			URI:        "http://javaone.com/keynote.ogg",
			Title:      "",
			Width:      641,
			Height:     481,
			Format:     "video/theora\u1234",
			Duration:   18000001,
			Size:       58982401,
			Bitrate:    0,
			HasBitrate: false,
			Persons:    []string{"Bill Gates, Jr.", "Steven Jobs"},
			Player:     PlayerFlash,
			Copyright:  "Copyright (c) 2009, Scooby Dooby Doo",
		},
		Images: []Image{
			{URI: "http://javaone.com/keynote_huge.jpg", Title: "Javaone Keynote\u1234", Width: 32000, Height: 24000, Size: SizeLarge},
			{URI: "http://javaone.com/keynote_large.jpg", Title: "", Width: 1024, Height: 768, Size: SizeLarge},
			{URI: "http://javaone.com/keynote_small.jpg", Title: "", Width: 320, Height: 240, Size: SizeSmall},
		},
	}
}
