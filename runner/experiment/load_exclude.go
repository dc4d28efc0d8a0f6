package experiment

import (
	"ckptlab/internal/words"
	"slices"

	"gopkg.in/yaml.v3"
)

// excludeKey names the axis key that key k of an exclude entry stands for,
// or says why an entry cannot have it.
func excludeKey(k string) (string, string) {
	switch {
	case isAxis(k):
		return k, ""
	case columnNames[k] != "":
		return columnNames[k], ""
	case keyNamed(k) != nil:
		return "", k + " is not a column of the grid, so it matches no point (want " + words.Or(excludeNames) + ")"
	}
	return "", "unknown key in an exclude entry (" + suggestAmong(k, excludeNames) + ")"
}

// readExclude reads and checks the exclude entries at n. Values are
// checked as values of the axis, but the word all is refused: an entry
// leaves an axis free by not naming it.
func (c *checker) readExclude(n *yaml.Node) []*mapItem {
	items := c.readItems(keyNamed("exclude"), n, maxExclude)
	for _, it := range items {
		if len(it.node.Content) == 0 {
			c.fail(it.node, it.suffix(), "empty entry, which matches every point (want at least one key, such as interval: none)")
			continue
		}
		c.readKeys(it, excludeKey)
		for _, written := range it.keys {
			key, _ := excludeKey(written)
			vn := it.nodes[key]
			sc := c.sub(it, written)
			if hasAll(vn) {
				sc.fail(vn, "", "all is not allowed in exclude (want the values to drop; an entry without %s matches every one)", written)
			} else {
				d := *keyNamed(key)
				d.All = false
				if v, ok := sc.values(&d, vn, frame{}); ok {
					it.values[key] = &v
				}
			}
			c.errs = append(c.errs, sc.errs...)
		}
	}
	return items
}

// hasAll reports whether n is the word all or a list holding it.
func hasAll(n *yaml.Node) bool {
	if n.Kind == yaml.SequenceNode {
		return slices.ContainsFunc(n.Content, func(m *yaml.Node) bool { return isWord(m, "all") })
	}
	return isWord(n, "all")
}

// exclusion returns the exclude entry it.
func exclusion(it *mapItem, lines bool) Exclusion {
	x := Exclusion{Keys: slices.Clone(it.keys)}
	if lines {
		x.Line = it.node.Line
	}
	x.set(it.values) // all is refused in exclude: no intervals are the word
	return x
}
