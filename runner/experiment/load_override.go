package experiment

import (
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	"ckptlab/internal/words"
)

// envPrefix starts the name of every environment variable that overrides a
// key: CKPTLAB_STATE_ROWS sets state_rows.
const envPrefix = "CKPTLAB_"

// ShardKeyVar is the variable of the key that signs shard files (package
// runner): the one CKPTLAB_ variable that is not a key of an experiment.
const ShardKeyVar = "CKPTLAB_SHARD_KEY"

// Overrides are values that replace those of an experiment file. In
// increasing precedence: the file, the environment variables, the --set
// arguments. Every value is YAML in flow syntax and is checked as a value
// of the file would be.
//
// An environment variable names a key whole, in upper case: CKPTLAB_
// followed by the key with its underscores, so CKPTLAB_STATE_ROWS is
// state_rows. Names match exactly, as environment variables do on POSIX
// systems: CKPTLAB_State_Rows and --set State_Rows=1 are unknown keys, and
// errors. Any variable that starts with CKPTLAB_ must name a key, but
// ShardKeyVar.
type Overrides struct {
	Env  []string // the environment, in os.Environ form: NAME=value
	Sets []string // --set arguments: key=value
}

// OverridesFromEnv returns the overrides of the process environment and
// the given --set arguments.
func OverridesFromEnv(sets []string) Overrides {
	return Overrides{Env: os.Environ(), Sets: sets}
}

// readEnv reads the layer of the environment. Of two variables of one
// name, the later takes effect.
func (l *loader) readEnv(env []string) {
	layer := map[string]any{}
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		rest, ok := strings.CutPrefix(name, envPrefix)
		if !ok || name == ShardKeyVar {
			continue
		}
		p := place{File: OriginEnv, Name: name}
		key := strings.ToLower(rest)
		d := keyNamed(key)
		if d == nil || rest != strings.ToUpper(key) {
			l.errs = append(l.errs, p.errorAt(nil, "", "unknown key (%s)", suggestEnv(rest)))
			continue
		}
		if d.Name == extendsKey {
			l.errs = append(l.errs, p.errorAt(nil, "", "%s", fileOnly))
			continue
		}
		layer[d.Name] = l.override(d, p, value).ID
	}
	l.load(layer)
}

// readSets reads the layer of the --set arguments. Of two arguments for
// one key, the later takes effect.
func (l *loader) readSets(sets []string) {
	layer := map[string]any{}
	for _, arg := range sets {
		key, value, ok := strings.Cut(arg, "=")
		if !ok || key == "" {
			p := place{File: OriginSet, Name: arg}
			l.errs = append(l.errs, p.errorAt(nil, "", "not key=value (want --set key=value, such as --set workers=8)"))
			continue
		}
		p := place{File: OriginSet, Name: key}
		d := keyNamed(key)
		if d == nil {
			l.errs = append(l.errs, p.errorAt(nil, "", "unknown key (%s)", suggestKey(key)))
			continue
		}
		if d.Name == extendsKey {
			l.errs = append(l.errs, p.errorAt(nil, "", "%s", fileOnly))
			continue
		}
		layer[d.Name] = l.override(d, p, value).ID
	}
	l.load(layer)
}

// override parses the value of an override as a YAML document and
// records it.
func (l *loader) override(d *keyDef, p place, value string) *setting {
	root, errs := parseDocument([]byte(value), p)
	if root == nil && len(errs) == 0 {
		root = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	if root != nil {
		errs = append(errs, checkPlain(root, "", p)...)
	}
	if root != nil && len(errs) == 0 {
		if g := gluedSet(value, root, p); g != nil {
			errs = append(errs, g)
		}
	}
	l.errs = append(l.errs, errs...)
	if len(errs) > 0 {
		root = nil
	}
	return l.newSetting(d.Name, p, root)
}

// fileOnly refuses an override of extends: the bases are part of the
// file, and an override replaces values, not files.
const fileOnly = "extends is read from the experiment file only (want extends: in the file, or override the keys themselves)"

// suggestKey says which key an unknown one may have meant, or lists them.
func suggestKey(name string) string {
	if near := nearest(name, keyNames()); near != nil {
		return "did you mean " + words.Or(near) + "?"
	}
	return "want one of " + strings.Join(keyNames(), ", ")
}

// suggestEnv is suggestKey for the rest of an environment variable's name.
func suggestEnv(rest string) string {
	if near := nearest(strings.ToLower(rest), keyNames()); near != nil {
		return "did you mean " + words.Or(words.Format(near, func(k string) string { return envPrefix + strings.ToUpper(k) })) + "?"
	}
	return "want " + envPrefix + " and a key in upper case, such as " + envPrefix + "STATE_ROWS"
}

// nearest returns the names an unknown one, read without regard to case,
// most likely misspells: those fewest edits away, within a third of its
// length (one edit for up to four letters, two at least for more), or else
// those it begins or that begin it (of four letters or more). It returns
// nil when none is near, or more than three are equally near: a guess
// among many helps no one.
func nearest(name string, names []string) []string {
	name = strings.ToLower(name)
	limit := 1
	if len(name) > 4 {
		limit = max(2, len(name)/3)
	}
	var near []string
	best := limit + 1
	for _, n := range names {
		switch d := editDistance(name, n); {
		case d > limit:
		case d < best:
			near, best = []string{n}, d
		case d == best:
			near = append(near, n)
		}
	}
	if near == nil {
		for _, n := range names {
			if len(name) >= 4 && strings.HasPrefix(n, name) || len(n) >= 4 && strings.HasPrefix(name, n) {
				near = append(near, n)
			}
		}
	}
	if len(near) > 4 {
		return nil
	}
	return near
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64 // far enough: no key is that long
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
