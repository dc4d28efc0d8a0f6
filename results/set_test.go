package results

import (
	"testing"
)

func TestConfigHash(t *testing.T) {
	tests := []struct {
		config []Setting
		want   string // sha256sum of the lines
	}{
		{nil, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{[]Setting{{Key: "a", Value: "1"}, {Key: "b", Value: "[x, y]"}}, "7363bc72e98a8d578ce05d4f6b327fdcd60f3a17fe98db8c14d79a65ae4e1db2"},
	}
	for _, tt := range tests {
		if got := (Set{Config: tt.config}).ConfigHash(); got != tt.want {
			t.Errorf("ConfigHash of %q = %s, want %s", tt.config, got, tt.want)
		}
	}
}
