package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// countingFiles is the disk, counting the reads of each path.
type countingFiles struct {
	Files
	reads map[string]int
}

func (c countingFiles) ReadFile(path string) ([]byte, error) {
	c.reads[filepath.Base(path)]++
	return c.Files.ReadFile(path)
}

// writeFiles writes name → contents into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExtendsReadOnce lists a base of 120,000 seeds 255 times, and another
// of 120,000 errors: each is read once, its errors said once, and a base
// listed again still takes effect in its place.
func TestExtendsReadOnce(t *testing.T) {
	dir := t.TempDir()
	seeds := make([]string, 120_000)
	bad := make([]string, 120_000)
	for i := range seeds {
		seeds[i], bad[i] = fmt.Sprint(i), "x"
	}
	many := func(name string) string { return "[" + strings.Repeat(name+", ", 254) + name + "]" }
	writeFiles(t, dir, map[string]string{
		"seeds.yaml": "seeds: [" + strings.Join(seeds, ", ") + "]\n",
		"errs.yaml":  "workers: [" + strings.Join(bad, ", ") + "]\n",
		"w2.yaml":    "workers: 2\n",
		"w3.yaml":    "workers: 3\n",
		"big.yaml":   "name: big\nextends: " + many("seeds.yaml") + "\n",
		"bad.yaml":   "name: bad\nextends: " + many("errs.yaml") + "\n",
		"again.yaml": "name: again\nextends: [w2.yaml, w3.yaml, w2.yaml]\n",
	})
	files := countingFiles{Disk, map[string]int{}}
	start := time.Now()
	e, err := LoadFrom(files, filepath.Join(dir, "big.yaml"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Seeds) != 120_000 || files.reads["seeds.yaml"] != 1 {
		t.Errorf("%d seeds, seeds.yaml read %d times; want 120000 and once", len(e.Seeds), files.reads["seeds.yaml"])
	}
	_, err = LoadFrom(files, filepath.Join(dir, "bad.yaml"), Overrides{})
	if list, ok := err.(ErrorList); !ok || len(list) != 120_000 || files.reads["errs.yaml"] != 1 {
		t.Errorf("errs.yaml read %d times, %d errors; want once and 120000", files.reads["errs.yaml"], len(list))
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the two took %v", took)
	}
	e, err = LoadFrom(files, filepath.Join(dir, "again.yaml"), Overrides{})
	if err != nil || !slices.Equal(e.Workers, []int{2}) || files.reads["w2.yaml"] != 1 {
		t.Errorf("[w2, w3, w2] gives workers %v, %v, w2.yaml read %d times; want [2] and once", e.Workers, err, files.reads["w2.yaml"])
	}
}

// TestExtendsLimitsTogether checks that the size and value limits hold for
// an experiment and its bases together, not for each file.
func TestExtendsLimitsTogether(t *testing.T) {
	dir := t.TempDir()
	pad := "# " + strings.Repeat("x", MaxFileBytes/2) + "\n"
	values := "seeds: [" + strings.Repeat("1, ", maxValues/2) + "1]\n"
	writeFiles(t, dir, map[string]string{
		"half1.yaml": pad + "workers: 1\n",
		"half2.yaml": pad + "workers: 2\n",
		"vals1.yaml": values,
		"vals2.yaml": "extends: vals1.yaml\n" + values,
		"size.yaml":  "name: size\nextends: [half1.yaml, half2.yaml]\n",
		"vals.yaml":  "name: vals\nextends: vals2.yaml\n",
	})
	for file, want := range map[string]string{
		"size.yaml": "extends[1]: base " + filepath.Join(dir, "half2.yaml") + " takes this experiment and its bases past 4 MiB",
		"vals.yaml": "base " + filepath.Join(dir, "vals1.yaml") + " takes this experiment and its bases past 250000 value marks",
	} {
		_, err := Load(filepath.Join(dir, file), Overrides{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", file, err, want)
		}
	}
}

// TestExtendsRoot checks that bases lie in the experiment's root: its
// repository's, or its folder outside one. A path or a link out of it is
// refused, naming the base and quoting nothing of the file; DiskAnywhere
// reads it.
func TestExtendsRoot(t *testing.T) {
	dir := t.TempDir()
	secret := "root:SECRETHASH:19000:0:99999:7:::\n"
	writeFiles(t, dir, map[string]string{
		"outside.yaml":          "workers: 2\n",
		"shadow":                secret,
		"repo/.git/HEAD":        "ref: refs/heads/main\n",
		"repo/base.yaml":        "workers: 3\n",
		"repo/exp/up.yaml":      "name: up\nextends: ../base.yaml\n",
		"plain/exp/up.yaml":     "name: up\nextends: ../../outside.yaml\n",
		"plain/exp/link.yaml":   "name: link\nextends: sh.yaml\n",
		"plain/exp/inside.yaml": "name: inside\nextends: base/b.yaml\n",
		"plain/exp/base/b.yaml": "workers: 4\n",
	})
	os.Symlink(filepath.Join(dir, "shadow"), filepath.Join(dir, "plain/exp/sh.yaml"))
	for _, tt := range []struct {
		file, want string // want "" for no error
	}{
		{"repo/exp/up.yaml", ""},
		{"plain/exp/inside.yaml", ""},
		{"plain/exp/up.yaml", "base " + filepath.Join(dir, "outside.yaml") + " is outside " + filepath.Join(dir, "plain/exp")},
		{"plain/exp/link.yaml", "base " + filepath.Join(dir, "plain/exp/sh.yaml") + " is a link to a file outside " + filepath.Join(dir, "plain/exp")},
	} {
		path := filepath.Join(dir, tt.file)
		_, err := Load(path, Overrides{})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.file, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "--allow-outside-root")):
			t.Errorf("%s: %v, want %q", tt.file, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRETHASH") {
			t.Errorf("%s: the error quotes the file: %v", tt.file, err)
		}
	}
	if _, err := LoadFrom(DiskAnywhere, filepath.Join(dir, "plain/exp/up.yaml"), Overrides{}); err != nil {
		t.Errorf("DiskAnywhere: %v", err)
	}
	_, err := LoadFrom(DiskAnywhere, filepath.Join(dir, "plain/exp/link.yaml"), Overrides{})
	if err == nil || strings.Contains(err.Error(), "SECRETHASH") || !strings.Contains(err.Error(), "is not an experiment file") {
		t.Errorf("DiskAnywhere, a link to lines of a secret: %v", err)
	}
}

// TestNotAnExperimentFile checks that a file none of whose keys is an
// experiment's is refused in one error that quotes none of its lines,
// while a file with a known key has its unknown keys named.
func TestNotAnExperimentFile(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"root:*:19000:0:99999:7:::\nsvc:SECRETHASH:1:2:::\n", "x.yaml:1:1: is not an experiment file: none of its keys is a key of one, so none of its lines is shown"},
		{"password: SECRETHASH\n", "x.yaml:1:1: is not an experiment file: none of its keys"},
		{"name: x\nwrokers: 2\n", "x.yaml:2:1: wrokers: unknown key"},
	} {
		_, err := LoadBytes("x.yaml", []byte(tt.src), Overrides{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "SECRETHASH") || strings.Contains(err.Error(), "root") {
			t.Errorf("%q: %v, want %q", tt.src, err, tt.want)
		}
	}
}

// TestErrorsEscape checks that what an error quotes of a file cannot move
// a terminal's cursor or change its title: a key or a value with a
// control character (written with YAML's escapes, as raw ones are a syntax
// error) is escaped.
func TestErrorsEscape(t *testing.T) {
	for _, src := range []string{
		`name: x` + "\n" + `"wo\e[2Jrkers": 2`,
		`name: x` + "\n" + `workers: "\e]0;title\a"`,
		`name: x` + "\n" + `failure_weights: {"\e[2J": 1}`,
	} {
		_, err := LoadBytes("x.yaml", []byte(src), Overrides{})
		if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") || !strings.Contains(err.Error(), `\x1b`) {
			t.Errorf("%q: %v, want an error with the escape written \\x1b", src, err)
		}
	}
}
