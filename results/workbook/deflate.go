package workbook

import (
	"bytes"
	"hash/crc32"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/flate"
)

// parallelDeflater compresses a stream on several cores, as pigz does:
// the stream is cut into pieces of deflatePiece bytes, each piece is
// compressed on its own and ended with a sync flush (an empty stored
// block that ends on a byte), and the pieces are written in order,
// followed by a final empty block. Deflate blocks refer back only to the
// bytes before them, which a piece compressed alone never does beyond its
// start, so the pieces read back as one stream. A piece starts without the
// previous piece's bytes to refer to, which costs well under one percent
// of the size at a piece of a mebibyte.
//
// The output depends only on the bytes written, not on which goroutine
// compressed what: pieces are cut at fixed sizes and written in order.
// Close must be called, after an error too.
type parallelDeflater struct {
	out  io.Writer
	crc  uint32
	size int64
	buf  []byte
	// queue holds each piece's result in order; its capacity bounds the
	// pieces in memory. workers bounds the pieces compressed at once.
	queue   chan chan *bytes.Buffer
	workers chan struct{}
	failed  chan struct{} // closed when writing out fails
	done    chan struct{} // closed when the writer of results returns
	err     error         // the first error writing out, once failed is closed
}

// deflatePiece is the size of the pieces compressed apart.
const deflatePiece = 1 << 20

// Pieces, compressed pieces and compressors are kept for the next piece:
// a large sheet is hundreds of pieces.
var (
	piecePool = sync.Pool{New: func() any {
		b := make([]byte, 0, deflatePiece)
		return &b
	}}
	outPool      = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	deflaterPool = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, deflateLevel) // the level is valid
		return w
	}}
)

// maxDeflateWorkers is the most pieces of one stream compressed at once,
// whatever the cores: each holds a piece in, a piece out and a compressor's
// state, and the queue of pieces is twice as long. It bounds what a sheet
// being packed holds.
const maxDeflateWorkers = 4

// deflateBytes bounds what a stream being compressed holds: the piece
// being filled, and two per compressing goroutine (one in, and its output
// with the compressor's state).
func deflateBytes() int64 {
	return int64(1+2*deflateWorkers()) * deflatePiece
}

// deflateWorkers is how many pieces of one stream are compressed at once.
func deflateWorkers() int { return min(runtime.GOMAXPROCS(0), maxDeflateWorkers) }

func newParallelDeflater(out io.Writer) *parallelDeflater {
	cores := deflateWorkers()
	d := &parallelDeflater{
		out:     out,
		queue:   make(chan chan *bytes.Buffer, 2*cores),
		workers: make(chan struct{}, cores),
		failed:  make(chan struct{}),
		done:    make(chan struct{}),
	}
	go d.writeResults()
	return d
}

// Write adds p to the stream.
func (d *parallelDeflater) Write(p []byte) (int, error) {
	d.crc = crc32.Update(d.crc, crc32.IEEETable, p)
	d.size += int64(len(p))
	n := len(p)
	for len(p) > 0 {
		if d.buf == nil {
			d.buf = (*piecePool.Get().(*[]byte))[:0]
		}
		k := min(len(p), deflatePiece-len(d.buf))
		d.buf = append(d.buf, p[:k]...)
		p = p[k:]
		if len(d.buf) == deflatePiece {
			if err := d.send(); err != nil {
				return n - len(p), err
			}
		}
	}
	return n, nil
}

// send has the piece in buf compressed.
func (d *parallelDeflater) send() error {
	piece := d.buf
	d.buf = nil
	result := make(chan *bytes.Buffer, 1)
	select {
	case d.queue <- result:
	case <-d.failed:
		piecePool.Put(&piece)
		return d.err
	}
	d.workers <- struct{}{}
	go func() {
		defer func() { <-d.workers }()
		out := outPool.Get().(*bytes.Buffer)
		out.Reset()
		w := deflaterPool.Get().(*flate.Writer)
		w.Reset(out)
		w.Write(piece) // a bytes.Buffer does not fail
		w.Flush()
		deflaterPool.Put(w)
		piecePool.Put(&piece)
		result <- out
	}()
	return nil
}

// writeResults writes the compressed pieces in order as they are done.
func (d *parallelDeflater) writeResults() {
	defer close(d.done)
	ok := true
	for result := range d.queue {
		b := <-result
		if ok {
			if _, d.err = d.out.Write(b.Bytes()); d.err != nil {
				ok = false
				close(d.failed)
			}
		}
		outPool.Put(b)
	}
}

// Close compresses what is left, writes the final block and waits for
// every piece to be written. It returns the first error.
func (d *parallelDeflater) Close() error {
	var err error
	if len(d.buf) > 0 {
		err = d.send()
	}
	close(d.queue)
	<-d.done
	if err == nil && d.err != nil {
		err = d.err
	}
	if err != nil {
		return err
	}
	w := deflaterPool.Get().(*flate.Writer)
	defer deflaterPool.Put(w)
	w.Reset(d.out)
	return w.Close() // no bytes: the final empty block
}
