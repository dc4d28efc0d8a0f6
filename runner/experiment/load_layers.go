package experiment

import (
	"fmt"

	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/v2"
	"gopkg.in/yaml.v3"
)

// loader gathers the layers of one experiment, the file and then the
// overrides, in a koanf instance, which merges them: a later layer's value
// of a key replaces an earlier one's. Every value of every layer is checked;
// the merged values make the experiment.
//
// koanf holds, for each key a layer sets, the ID of the setting rather than
// the setting itself: koanf deep-copies what it holds on every load and get,
// which for a yaml.Node tree costs time in proportion to its size (a list of
// 100,000 seeds took a second).
type loader struct {
	path     string
	files    Files          // where the file's bases are read
	order    map[string]int // the files read, the file itself 0, then its bases as read
	reads    int            // bases read so far, for maxChainFiles
	bytes    int            // bytes of the file and its bases, for MaxFileBytes
	values   int            // value marks of the file and its bases, for maxValues
	layers   []map[string]any
	bases    map[string][]map[string]any // a base's layers, its own bases' first, by path
	baseRoot string                      // where bases lie (RootOf), "" until asked
	k        *koanf.Koanf
	settings []*setting // every value of every layer, in the order read
	errs     ErrorList
	root     *yaml.Node // the file's top level, nil for an empty file
	noTop    bool       // the top level is not a mapping
	named    bool       // a layer sets name: an experiment, not a base
	empty    bool       // the file sets no key
}

// setting is one key's value in one layer. ID is its index in
// loader.settings, and what koanf holds of it.
type setting struct {
	ID    int
	Key   string
	Place place
	Node  *yaml.Node // nil when the value cannot be read, such as an alias
}

func newLoader(path string) *loader {
	return &loader{path: path, files: Disk, order: map[string]int{}, k: koanf.New(".")}
}

// newSetting records a value of a layer.
func (l *loader) newSetting(key string, p place, n *yaml.Node) *setting {
	s := &setting{ID: len(l.settings), Key: key, Place: p, Node: n}
	l.settings = append(l.settings, s)
	return s
}

// load merges a layer, key → setting ID, over the layers before it. Keys
// hold no delimiter, so the layer is flat.
func (l *loader) load(layer map[string]any) {
	if err := l.k.Load(confmap.Provider(layer, ""), nil); err != nil {
		l.errs = append(l.errs, &Error{File: l.path, Msg: fmt.Sprintf("cannot merge the overrides: %v", err)})
	}
}

// winners returns the setting that takes effect for each key that some
// layer sets.
func (l *loader) winners() map[string]*setting {
	win := map[string]*setting{}
	for _, d := range keyTable {
		if id, ok := l.k.Get(d.Name).(int); ok {
			win[d.Name] = l.settings[id]
		}
	}
	return win
}

// OriginDefault is the origin of a value no layer sets: the lesson's.
const OriginDefault = "default"

// origins returns, for each key whose winning value is not the file's,
// where that value came from: OriginDefault, the environment variable's
// name, OriginSet, or "from" and the path of the base that set it.
func (l *loader) origins(win map[string]*setting) map[string]string {
	out := map[string]string{}
	for _, d := range keyTable {
		s := win[d.Name]
		switch {
		case d.Name == extendsKey:
			// read before the layers, and no value of the experiment
		case s == nil && (d.Type == typeCases || d.Type == typeExclude):
			// no default: without them the grid is the file's axes
		case s == nil:
			out[d.Name] = OriginDefault
		case s.Place.File == OriginEnv:
			out[d.Name] = s.Place.Name
		case s.Place.File == OriginSet:
			out[d.Name] = OriginSet
		case s.Place.File != l.path:
			out[d.Name] = l.baseOrigin(s.Place.File)
		}
	}
	return out
}
