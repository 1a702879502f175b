package serializer

import "time"

// Date is Fory's DATE type, a calendar day without a time zone, like
// official Fory Go's fory.Date. It is written as days since 1970-01-01.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}
