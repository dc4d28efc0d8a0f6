package results

import "strings"

// The palette of intervals, declared once and read by every chart of the
// workbook, the decision map and the Markdown: one colour per interval
// wherever it is drawn. The first seven are the Okabe-Ito palette, which
// readers with any common colour-vision deficiency tell apart; five more,
// each as far from the others and from black as the seven are from each
// other (ΔE*ab 26 or more), tell twelve intervals apart by colour alone.
// none, the job without checkpoints, is black, a colour no interval takes.
// Past twelve intervals the colours repeat and the line's dash tells them
// apart, and past three dashes the marker.
var palette = [...]string{
	"E69F00", "56B4E9", "009E73", "CC79A7", "0072B2", "D55E00", "F0E442",
	"332288", "661100", "66A61E", "E7298A", "DDCC77",
}

// dashes is how many dashes a line takes (IntervalStyle), markers the
// markers in turn past them.
const dashes = 3

var markers = [...]string{"circle", "square", "triangle", "diamond", "x"}

// noneColour is the colour of none.
const noneColour = "000000"

// MarksColour is the colour of a chart's marks, the break-even crossings:
// a dark grey, apart from every line's colour, black none's included.
const MarksColour = "595959"

// EnvelopeColour draws the lower envelope of an expected-total chart:
// a dark grey dashed line over the recommended ones.
const EnvelopeColour = "404040"

// IntervalStyle returns the colour (RGB hex) and the dash number (0
// solid, 1 dashed, 2 dotted) of an interval named "none" or a number of
// periods, with or without an "interval " prefix; ok is false for a name
// that is neither.
func IntervalStyle(name string) (colour string, dash int, ok bool) {
	name = strings.TrimPrefix(name, "interval ")
	if name == "none" {
		return noneColour, 0, true
	}
	k, ok := intervalNumber(name)
	if !ok {
		return "", 0, false
	}
	return palette[(k-1)%len(palette)], (k - 1) / len(palette) % dashes, true
}

// IntervalMarker returns the marker symbol of an interval's points: a
// circle, and past as many intervals as colours and dashes tell apart,
// the next marker in turn.
func IntervalMarker(name string) string {
	k, ok := intervalNumber(strings.TrimPrefix(name, "interval "))
	if !ok {
		return markers[0]
	}
	return markers[(k-1)/(len(palette)*dashes)%len(markers)]
}

// intervalNumber reads an interval's name as its number of periods.
func intervalNumber(name string) (int, bool) {
	k := 0
	for _, c := range name {
		if c < '0' || c > '9' {
			return 0, false
		}
		k = k*10 + int(c-'0')
	}
	return k, k >= 1
}
