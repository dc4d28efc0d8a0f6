package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMarkdownToStdout runs the lesson with --format md -o -, as a CI job
// appending to $GITHUB_STEP_SUMMARY does.
// The Markdown goes to stdout and no file is written.
func TestMarkdownToStdout(t *testing.T) {
	lesson, err := os.ReadFile(filepath.Join("..", "..", "experiments", "lesson.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("lesson.yaml", lesson, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"run", "--format", "md", "-o", "-", "lesson.yaml"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "## ckptlab: lesson\n") || !strings.Contains(stdout.String(), "| 1.0 | 1200.0 | 945.5 | **927.3** |") {
		t.Errorf("stdout is not the lesson's Markdown:\n%s", stdout.String())
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the run wrote files: %v", entries)
	}

	for _, args := range [][]string{
		{"run", "--format", "md,csv", "-o", "-", "lesson.yaml"},
		{"run", "--format", "md", "--check", "-o", "-", "lesson.yaml"},
	} {
		stdout.Reset()
		stderr.Reset()
		if code := Main(args, &stdout, &stderr); code != exitBadUser || !strings.Contains(stderr.String(), "-o -") {
			t.Errorf("%q: exit %d, stderr %q; want %d and a message on -o -", args, code, stderr.String(), exitBadUser)
		}
	}
}
