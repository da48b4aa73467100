package a11y

import (
	"math"
	"strconv"
	"strings"
	"sync"
)

// rgb is an opaque sRGB color, each channel 0-255.
type rgb struct{ r, g, b float64 }

// namedColors are the CSS named colors most used in inline styles; a name
// not here is not judged.
var namedColors = sync.OnceValue(func() map[string]rgb {
	return map[string]rgb{
		"black": {0, 0, 0}, "white": {255, 255, 255}, "red": {255, 0, 0}, "green": {0, 128, 0}, "blue": {0, 0, 255},
		"yellow": {255, 255, 0}, "orange": {255, 165, 0}, "gray": {128, 128, 128}, "grey": {128, 128, 128},
		"silver": {192, 192, 192}, "lightgray": {211, 211, 211}, "lightgrey": {211, 211, 211}, "darkgray": {169, 169, 169},
		"darkgrey": {169, 169, 169}, "gainsboro": {220, 220, 220}, "whitesmoke": {245, 245, 245}, "navy": {0, 0, 128},
		"maroon": {128, 0, 0}, "purple": {128, 0, 128}, "teal": {0, 128, 128}, "olive": {128, 128, 0}, "lime": {0, 255, 0},
		"aqua": {0, 255, 255}, "cyan": {0, 255, 255}, "fuchsia": {255, 0, 255}, "magenta": {255, 0, 255},
		"pink": {255, 192, 203}, "lightyellow": {255, 255, 224}, "ivory": {255, 255, 240}, "beige": {245, 245, 220},
		"lightblue": {173, 216, 230}, "skyblue": {135, 206, 235}, "lightgreen": {144, 238, 144}, "darkblue": {0, 0, 139},
		"darkred": {139, 0, 0}, "darkgreen": {0, 100, 0}, "dimgray": {105, 105, 105}, "dimgrey": {105, 105, 105},
		"slategray": {112, 128, 144}, "lightslategray": {119, 136, 153}, "gold": {255, 215, 0}, "khaki": {240, 230, 140},
		"tomato": {255, 99, 71}, "coral": {255, 127, 80}, "salmon": {250, 128, 114}, "crimson": {220, 20, 60},
		"brown": {165, 42, 42}, "tan": {210, 180, 140}, "wheat": {245, 222, 179}, "linen": {250, 240, 230},
		"aliceblue": {240, 248, 255}, "ghostwhite": {248, 248, 255}, "snow": {255, 250, 250}, "honeydew": {240, 255, 240},
		"mintcream": {245, 255, 250}, "azure": {240, 255, 255}, "lavender": {230, 230, 250}, "steelblue": {70, 130, 180},
		"royalblue": {65, 105, 225}, "indigo": {75, 0, 130}, "violet": {238, 130, 238}, "orchid": {218, 112, 214},
	}
})

// parseColor reads a CSS color: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(),
// rgba(), hsl(), hsla() and the named colors above. ok is false for what
// it cannot judge: a variable, currentColor, a translucent color (whose
// result depends on what is under it), an unknown name.
func parseColor(s string) (rgb, bool) {
	s = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "!important")))
	if c, ok := namedColors()[s]; ok {
		return c, true
	}
	if strings.HasPrefix(s, "#") {
		h := s[1:]
		switch len(h) {
		case 3, 4:
			if len(h) == 4 && h[3] != 'f' {
				return rgb{}, false
			}
			v, err := strconv.ParseUint(h[:3], 16, 16)
			if err != nil {
				return rgb{}, false
			}
			return rgb{float64((v>>8)&0xf) * 17, float64((v>>4)&0xf) * 17, float64(v&0xf) * 17}, true
		case 6, 8:
			if len(h) == 8 && h[6:] != "ff" {
				return rgb{}, false
			}
			v, err := strconv.ParseUint(h[:6], 16, 32)
			if err != nil {
				return rgb{}, false
			}
			return rgb{float64((v >> 16) & 0xff), float64((v >> 8) & 0xff), float64(v & 0xff)}, true
		}
		return rgb{}, false
	}
	fn, args, ok := strings.Cut(s, "(")
	if !ok || !strings.HasSuffix(args, ")") {
		return rgb{}, false
	}
	parts := strings.FieldsFunc(strings.TrimSuffix(args, ")"), func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(parts) == 4 {
		if a, ok := number(parts[3], 1); !ok || a < 1 {
			return rgb{}, false
		}
		parts = parts[:3]
	}
	if len(parts) != 3 {
		return rgb{}, false
	}
	switch fn {
	case "rgb", "rgba":
		var c [3]float64
		for i, p := range parts {
			v, ok := number(p, 255)
			if !ok {
				return rgb{}, false
			}
			c[i] = math.Max(0, math.Min(255, v))
		}
		return rgb{c[0], c[1], c[2]}, true
	case "hsl", "hsla":
		h, ok1 := strconv.ParseFloat(strings.TrimSuffix(parts[0], "deg"), 64)
		sat, ok2 := number(parts[1], 1)
		l, ok3 := number(parts[2], 1)
		if ok1 != nil || !ok2 || !ok3 {
			return rgb{}, false
		}
		return hsl(h, sat, l), true
	}
	return rgb{}, false
}

// number reads a number or a percentage of full.
func number(s string, full float64) (float64, bool) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(p, 64)
		return v / 100 * full, err == nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if full == 1 && v > 1 { // hsl() saturation and lightness without %
		v /= 100
	}
	return v, err == nil
}

func hsl(h, s, l float64) rgb {
	h = math.Mod(math.Mod(h, 360)+360, 360) / 360
	f := func(n float64) float64 {
		k := math.Mod(n+h*12, 12)
		a := s * math.Min(l, 1-l)
		return 255 * (l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1)))
	}
	return rgb{f(0), f(8), f(4)}
}

// luminance is WCAG 2's relative luminance.
func (c rgb) luminance() float64 {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is WCAG 2's contrast ratio, 1 to 21.
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// styleDecl returns the value of a property in an inline style, "" if
// absent.
func styleDecl(style, prop string) string {
	for _, d := range strings.Split(style, ";") {
		k, v, ok := strings.Cut(d, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), prop) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// backgroundColor is an inline style's background color: background-color,
// or a background shorthand that is a single color.
func backgroundColor(style string) string {
	if v := styleDecl(style, "background-color"); v != "" {
		return v
	}
	v := styleDecl(style, "background")
	if v == "" || strings.Contains(v, "url(") || strings.Contains(v, "gradient") {
		return ""
	}
	return v
}

// largeText reports whether an inline style makes text large in WCAG's
// sense: 18pt (24px), or 14pt (18.66px) and bold.
func largeText(style string) bool {
	size := styleDecl(style, "font-size")
	px := 0.0
	switch {
	case strings.HasSuffix(size, "px"):
		px, _ = strconv.ParseFloat(strings.TrimSuffix(size, "px"), 64)
	case strings.HasSuffix(size, "pt"):
		pt, _ := strconv.ParseFloat(strings.TrimSuffix(size, "pt"), 64)
		px = pt * 4 / 3
	case strings.HasSuffix(size, "rem") || strings.HasSuffix(size, "em"):
		em, _ := strconv.ParseFloat(strings.TrimRight(size, "rem"), 64)
		px = em * 16
	}
	w := styleDecl(style, "font-weight")
	bold := w == "bold" || w == "bolder" || w == "700" || w == "800" || w == "900"
	return px >= 24 || (bold && px >= 18.66)
}
