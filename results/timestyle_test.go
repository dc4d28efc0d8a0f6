package results

import "testing"

func TestTimeStyle(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Duration(9.2), "9.2 s"},
		{Duration(30), "30 s"},
		{Duration(59.96), "1 min"},
		{Duration(90), "1 min 30 s"},
		{Duration(300), "5 min"},
		{Duration(117 * 60), "1 h 57 min"},
		{Duration(116.7 * 60), "1 h 57 min"},
		{Duration(86400), "24 h"},
		{Duration(6 * 3600), "6 h"},
		{Duration(5*86400 + 4*3600), "5 d 4 h"},
		{Percent(0.0961), "9.6 %"},
		{Percent(0.1234), "12 %"},
		{Percent(0.00096), "0.096 %"},
		{Percent(50.64), "5064 %"},
		{Percent(0), "0 %"},
		{Figure(120), "120"},
		{Figure(116.6943), "116.7"},
		{Figure(9.1666), "9.167"},
		{Figure(123456.7), "123457"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
