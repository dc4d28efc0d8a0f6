package results

import (
	"context"
	"io"
)

// ContextWriter returns a writer to w that fails once ctx is done, so that
// long copies stop soon after a cancellation.
func ContextWriter(ctx context.Context, w io.Writer) io.Writer { return ctxWriter{ctx, w} }

type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// CheckEvery is how many rows a writer writes between two looks at its
// context.
const CheckEvery = 4096
