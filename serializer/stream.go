package serializer

import (
	"errors"
	"fmt"
	"io"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer/foryimpl"
)

// A stream is a sequence of messages written back to back with no framing:
// the end of a message is found by decoding it. This is what official Fory
// Go's InputStream reads (one Serialize per message, written one after the
// other). Official Go resets its type meta after every message, and its
// reader fails on a reference to a TypeDef of an earlier message, so every
// message of a stream is standalone and carries its TypeDefs again; the
// Encoder writes the same bytes, and the Decoder parses each distinct
// TypeDef once and recognises it afterwards.

// DefaultMaxMessageSize is the largest message a Decoder reads unless told
// otherwise (SetMaxMessageSize).
const DefaultMaxMessageSize = 64 << 20

// maxKeptBuffer bounds the buffer an Encoder or Decoder keeps between
// messages, so one huge message does not pin its buffer for the stream's
// life.
const maxKeptBuffer = 1 << 20

// Encoder writes messages to an io.Writer, one Write call per message.
// It is not safe for concurrent use.
type Encoder struct {
	f   *Fory
	w   io.Writer
	buf *buffer.Buffer
}

// NewEncoder returns an Encoder that writes to w with f's options.
func NewEncoder(f *Fory, w io.Writer) *Encoder {
	return &Encoder{f: f, w: w, buf: buffer.New(256)}
}

// Encode writes the message for v, a pointer to a generated type. Nothing
// is written when serializing fails; a write error is returned as is.
func (e *Encoder) Encode(v any) error {
	if len(e.buf.Window()) > maxKeptBuffer {
		e.buf = buffer.New(256)
	}
	e.buf.Reset()
	if err := e.f.serializeTo(e.buf, v); err != nil {
		return err
	}
	_, err := e.w.Write(e.buf.Bytes())
	return err
}

// Decoder reads messages from an io.Reader. It reads ahead: bytes after the
// current message stay in its buffer for the next Decode, so nothing else
// should read from the same reader. It is not safe for concurrent use.
//
// With WithZeroCopy, decoded strings and []byte values view the Decoder's
// buffer. It never writes over bytes it has handed to Decode: when the
// buffered bytes run out it reads into a new buffer, so values decoded
// earlier keep their contents (and their buffer alive).
//
// Memory is bounded by the largest message (SetMaxMessageSize). A message
// that arrives in pieces is decoded again when more of it has arrived;
// after a few attempts the Decoder waits for the buffered bytes to double
// before it tries again, so a message trickling in byte by byte costs
// O(n log n), not O(n²).
type Decoder struct {
	sf   Fory // f's options in stream mode, with its own TypeDef cache
	r    io.Reader
	buf  []byte // buf[off:] is buffered, not yet decoded
	off  int
	read int64 // stream offset of buf[0]
	max  int
	rerr error // the reader's first error (io.EOF at its end)
	// zeroCopy (WithZeroCopy): decoded values alias buf, so bytes handed
	// to a Decode are never written again; see fill.
	zeroCopy bool
}

// NewDecoder returns a Decoder that reads from r with f's options.
func NewDecoder(f *Fory, r io.Reader) *Decoder {
	cfg := f.rt.Config()
	cfg.Stream = true
	d := &Decoder{r: r, max: DefaultMaxMessageSize, zeroCopy: cfg.ZeroCopy}
	d.sf.rt.Init(cfg)
	return d
}

// SetMaxMessageSize sets the largest message Decode reads (default
// DefaultMaxMessageSize); a longer one fails with ErrLimit.
func (d *Decoder) SetMaxMessageSize(n int) {
	if n > 0 {
		d.max = n
	}
}

// Buffered returns the bytes read from the reader but not yet decoded.
func (d *Decoder) Buffered() io.Reader { return &sliceReader{d.buf[d.off:]} }

// eagerAttempts is how many times a message is decoded again after each
// read before the Decoder waits for the buffered bytes to double.
const eagerAttempts = 4

// Decode reads the next message into v, a non-nil pointer to a generated
// type or to a RootValue type. At the end of the stream, between messages,
// it returns io.EOF. A stream that ends inside a message gives a
// *DecodeError wrapping both io.ErrUnexpectedEOF (as encoding/json and
// encoding/gob report a cut stream) and ErrMalformed; its Offset, like
// every DecodeError's here, is counted from the start of the stream. An
// error of the reader is returned as is.
func (d *Decoder) Decode(v any) error {
	m, ok := asMessage(v)
	if !ok {
		// A pointer to a non-struct root value (roots.go).
		m = rootTarget{v}
	}
	if d.off == len(d.buf) {
		if d.fill(1); d.off == len(d.buf) {
			return d.rerr
		}
	}
	for attempt := 1; ; attempt++ {
		in := d.buf[d.off:]
		d.sf.rt.BeginStream()
		err := m.ForyDeserialize(&d.sf, in)
		if err == ErrNotGenerated {
			return notGenerated(v)
		}
		n, short := d.sf.rt.StreamResult(len(in))
		if err == nil {
			d.off += n
			return nil
		}
		start := d.read + int64(d.off)
		if !short || d.rerr != nil {
			if short && d.rerr != io.EOF {
				return d.rerr
			}
			if short {
				// The reader ended inside the message: io.ErrUnexpectedEOF,
				// as encoding/json and encoding/gob say it.
				err = cutError(err)
			}
			return streamError(err, start)
		}
		if len(in) >= d.max {
			return &DecodeError{Type: typeName(m), Offset: int(start), Err: fmt.Errorf(
				"message longer than the decoder's limit of %d bytes (SetMaxMessageSize): %w", d.max, ErrLimit)}
		}
		want := len(in) + 1
		if attempt > eagerAttempts {
			want = 2 * len(in)
		}
		d.fill(min(want, d.max))
	}
}

// fill reads until n bytes are buffered or the reader fails.
func (d *Decoder) fill(n int) {
	if d.off > 0 {
		// Move the unread bytes to the front; drop a buffer grown for an
		// earlier, larger message.
		rest := len(d.buf) - d.off
		if d.zeroCopy {
			// Values decoded with WithZeroCopy view d.buf[:len(d.buf)]
			// (a failed attempt's too): the unread bytes go to a new
			// buffer, and the old one stays as it is for as long as they
			// refer to it. Reads below append past len(d.buf) only.
			d.buf = append(make([]byte, 0, max(n, 2*rest, 4096)), d.buf[d.off:]...)
		} else if cap(d.buf) > maxKeptBuffer && rest <= maxKeptBuffer/2 {
			d.buf = append(make([]byte, 0, max(rest, 4096)), d.buf[d.off:]...)
		} else {
			d.buf = d.buf[:copy(d.buf, d.buf[d.off:])]
		}
		d.read += int64(d.off)
		d.off = 0
	}
	if cap(d.buf) < n {
		// Room for what is needed, and for a read ahead at least as large
		// as the message so far.
		d.buf = append(make([]byte, 0, max(n, 2*len(d.buf), 4096)), d.buf...)
	}
	for empty := 0; len(d.buf) < n && d.rerr == nil; {
		k, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+k]
		if err != nil {
			d.rerr = err
		} else if k == 0 {
			if empty++; empty >= 100 {
				d.rerr = io.ErrNoProgress
			}
		}
	}
}

// cutStream is the error of a message the stream ends inside: the
// decoder's error, which says where the bytes ran out, and
// io.ErrUnexpectedEOF, both for errors.Is.
type cutStream struct{ err error }

func (c *cutStream) Error() string {
	return "the stream ends inside the message (" + io.ErrUnexpectedEOF.Error() + "): " + c.err.Error()
}

func (c *cutStream) Unwrap() []error { return []error{io.ErrUnexpectedEOF, c.err} }

// cutError wraps a cut message's error, inside its DecodeError.
func cutError(err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Err = &cutStream{de.Err}
		return err
	}
	return &cutStream{err}
}

// streamError moves a message's DecodeError offset to the stream's count.
func streamError(err error, start int64) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Offset += int(start)
	}
	return err
}

func typeName(m Message) string {
	if t, ok := m.(foryimpl.Message); ok {
		return t.ForyType().GoName
	}
	if r, ok := m.(rootTarget); ok {
		return fmt.Sprintf("%T", r.p)[1:]
	}
	return fmt.Sprintf("%T", m)
}

// sliceReader reads a slice, like bytes.Reader without its other methods.
type sliceReader struct{ b []byte }

func (r *sliceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}
