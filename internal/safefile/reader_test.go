package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReader checks each limit of a Reader, the byte order mark, and that
// the text within the limits comes through as it is.
func TestReader(t *testing.T) {
	tests := []struct {
		name, in string
		lim      Limits
		want     string // the text read, or "error:" and what the error says
	}{
		{"plain", "a,b\n1,2\n", Limits{}, "a,b\n1,2\n"},
		{"mark dropped", "\xef\xbb\xbfseed\n1\n", Limits{Text: true}, "seed\n1\n"},
		{"mark kept in a file not of text", "\xef\xbb\xbfseed\n", Limits{}, "\xef\xbb\xbfseed\n"},
		{"mark alone", "\xef\xbb\xbf", Limits{Text: true}, ""},
		{"short", "a", Limits{Text: true}, "a"},
		{"mark only at the start", "a\xef\xbb\xbf\n", Limits{Text: true}, "a\xef\xbb\xbf\n"},
		{"bytes at the limit", "abcd", Limits{Bytes: 4}, "abcd"},
		{"bytes past the limit", "abcde", Limits{Bytes: 4}, "error:larger than 4 bytes"},
		{"line at the limit", "abc\nde\n", Limits{Line: 4}, "abc\nde\n"},
		{"line past the limit", "abc\ndefgh\n", Limits{Line: 4}, "error:line 2 is longer than 4 bytes"},
		{"line without an end", "abcdefgh", Limits{Line: 4}, "error:line 1 is longer"},
		{"lines at the limit", "a\nb\n", Limits{Lines: 2}, "a\nb\n"},
		{"last line without an end", "a\nb", Limits{Lines: 2}, "a\nb"},
		{"lines past the limit", "a\nb\nc", Limits{Lines: 2}, "error:line 3 is past 2 lines"},
		{"a quoted line end continues the record", "\"a\nbc\"\n", Limits{Line: 5, CSV: true}, "error:line 1 is longer than 5"},
		{"quoted quotes", "\"a\"\"\"\nb\n", Limits{Lines: 2, CSV: true}, "\"a\"\"\"\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte at a time, to cross every boundary, and whole.
			for _, r := range []io.Reader{oneByte{strings.NewReader(tt.in)}, strings.NewReader(tt.in)} {
				got, err := io.ReadAll(NewReader(r, "f", tt.lim))
				if msg, ok := strings.CutPrefix(tt.want, "error:"); ok {
					if err == nil || !strings.Contains(err.Error(), msg) {
						t.Errorf("got %q, %v; want an error saying %q", got, err, msg)
					}
					continue
				}
				if err != nil || string(got) != tt.want {
					t.Errorf("got %q, %v; want %q", got, err, tt.want)
				}
			}
		})
	}
}

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

// TestOpenReaderSize checks that a Reader of a file reads no more than the
// size the file had when opened.
func TestOpenReaderSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("a\n"), 0o644)
	r, err := OpenReader(path, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("grown\n")
	f.Close()
	if got, err := io.ReadAll(r); err == nil {
		t.Errorf("read %q of a file that grew, want an error", got)
	}
	var tl *TooLargeError
	if _, err := OpenReader(path, Limits{Bytes: 4}); !errors.As(err, &tl) {
		t.Errorf("OpenReader past its limit = %v", err)
	}
}

// TestExcerpt checks that an excerpt is short and holds no character that
// could change a terminal.
func TestExcerpt(t *testing.T) {
	tests := []struct{ in, want string }{
		{"seed", "seed"},
		{"abcdefgh", "abcd…"},
		{"äöüßéèçñ", "äöüß…"},
		{"a\x1b[2Jb", `"a\x1b[2"…`},
		{"a\x1bc", `"a\x1bc"`},
		{"\u202eevil", `"\u202eevi"…`},
		{"\xff\xfe", `"\xff\xfe"`},
	}
	for _, tt := range tests {
		if got := Excerpt(tt.in, 4); got != tt.want {
			t.Errorf("Excerpt(%q, 4) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
