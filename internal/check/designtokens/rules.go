package designtokens

import "github.com/cairn-dev/cairn/internal/check"

const (
	ruleSyntax        = "designtokens/syntax"
	ruleDuplicate     = "designtokens/duplicate-key"
	ruleUnresolved    = "designtokens/unresolved-alias"
	ruleCycle         = "designtokens/alias-cycle"
	ruleTypeMismatch  = "designtokens/type-mismatch"
	ruleInvalidValue  = "designtokens/invalid-value"
	ruleUnknownType   = "designtokens/unknown-type"
	ruleMissingType   = "designtokens/missing-type"
	ruleTokenAndGroup = "designtokens/token-and-group"
	ruleInvalidName   = "designtokens/invalid-name"
	ruleInvalidProp   = "designtokens/invalid-property"
	ruleUnknownProp   = "designtokens/unknown-property"
	ruleUnit          = "designtokens/non-portable-unit"
	ruleDeprecated    = "designtokens/deprecated-reference"
)

const (
	specFormat = "https://www.designtokens.org/tr/2025.10/format/"
	specColor  = "https://www.designtokens.org/tr/2025.10/color/"
)

var rules = []check.Rule{
	{ID: ruleSyntax, Severity: check.Error, Title: "Token file does not parse",
		Why: "A token file with a JSON syntax error stops Style Dictionary, Tokens Studio and every other tool at the first byte they cannot read.",
		Fix: "Fix the JSON at the position given.",
		Bad: `{"color": {"$value": "#fff",}}`, Good: `{"color": {"$value": "#fff"}}`},
	{ID: ruleDuplicate, Severity: check.Error, Title: "Key defined twice",
		Why: "JSON parsers keep the last of two equal keys without a word: the first token or property is silently lost.",
		Fix: "Remove one of the two, or rename it.",
		Bad: `{"brand": {"$value": "#00f"}, "brand": {"$value": "#f00"}}`, Good: `{"brand": {"$value": "#00f"}, "accent": {"$value": "#f00"}}`,
		Link: "https://www.rfc-editor.org/rfc/rfc8259#section-4"},
	{ID: ruleUnresolved, Severity: check.Error, Title: "Alias does not resolve",
		Why: "An alias ({group.token}, or a $ref JSON Pointer) that names no token fails the build, or ships the literal text \"{group.token}\" into CSS.",
		Fix: "Point the alias at an existing token (the full dotted path, $root for a group's own token), or add the token.",
		Bad: `{"button": {"bg": {"$type": "color", "$value": "{color.brnad}"}}}`, Good: `{"button": {"bg": {"$type": "color", "$value": "{color.brand}"}}}`,
		Link: specFormat + "#aliases-references"},
	{ID: ruleCycle, Severity: check.Error, Title: "Aliases form a cycle",
		Why: "Aliases that lead back to themselves have no value: the specification makes every token of the cycle invalid, and tools stop or loop.",
		Fix: "Give one token of the cycle an explicit value.",
		Bad: `{"a": {"$value": "{b}"}, "b": {"$value": "{a}"}}`, Good: `{"a": {"$value": "{b}"}, "b": {"$type": "color", "$value": "#000"}}`,
		Link: specFormat + "#circular-references"},
	{ID: ruleTypeMismatch, Severity: check.Error, Title: "Alias of another type",
		Why: "A token whose alias (or a composite sub-value's alias) leads to a token of another type holds a value its type does not allow: a color that is a dimension.",
		Fix: "Alias a token of the same type, or change the declared type.",
		Bad: `{"bg": {"$type": "color", "$value": "{space.small}"}}`, Good: `{"bg": {"$type": "color", "$value": "{color.surface}"}}`,
		Link: specFormat + "#type-0"},
	{ID: ruleInvalidValue, Severity: check.Error, Title: "Value invalid for its type",
		Why: "Each type has a value grammar (a color, a dimension with px or rem, a duration in ms or s, four numbers for a cubic Bézier with x in [0, 1], a font weight from 1 to 1000 or a named weight, the parts of a shadow, border or typography); tools refuse or mistranslate a value outside it.",
		Fix: "Write the value as its type requires.",
		Bad: `{"ease": {"$type": "cubicBezier", "$value": [1.2, 0, 0.5, 1]}}`, Good: `{"ease": {"$type": "cubicBezier", "$value": [0.5, 0, 0.5, 1]}}`,
		Link: specFormat + "#types"},
	{ID: ruleUnknownType, Severity: check.Warning, Title: "Unknown $type",
		Why: "A $type that neither the specification nor a common tool (Style Dictionary, Tokens Studio) defines is not validated, and tools may refuse the token.",
		Fix: "Use a type of the specification (color, dimension, fontFamily, fontWeight, duration, cubicBezier, number, strokeStyle, border, transition, shadow, gradient, typography); $type is case-sensitive.",
		Bad: `{"$type": "colour"}`, Good: `{"$type": "color"}`,
		Link: specFormat + "#type-0"},
	{ID: ruleMissingType, Severity: check.Warning, Title: "Token without a type",
		Why: "A DTCG token whose type is neither set, inherited from a group, nor taken from an alias is invalid: the specification forbids guessing a type from the value.",
		Fix: "Set $type on the token or on its group.",
		Bad: `{"brand": {"$value": "#0050b3"}}`, Good: `{"brand": {"$type": "color", "$value": "#0050b3"}}`,
		Link: specFormat + "#type-0"},
	{ID: ruleTokenAndGroup, Severity: check.Error, Title: "Token with child tokens",
		Why: "An object with a $value is a token; one that also holds child tokens or groups is both, which the specification makes an error.",
		Fix: "Move the value into a $root token of the group, or the children into a group of their own.",
		Bad: `{"accent": {"$value": "#d00", "light": {"$value": "#f22"}}}`, Good: `{"accent": {"$root": {"$value": "#d00"}, "light": {"$value": "#f22"}}}`,
		Link: specFormat + "#groups"},
	{ID: ruleInvalidName, Severity: check.Error, Title: "Invalid token or group name",
		Why: "Names must not start with $ (reserved for the format's properties) or contain {, } or . (which aliases use as syntax): such a token cannot be referenced.",
		Fix: "Rename it without those characters.",
		Bad: `{"space.small": {"$value": "4px"}}`, Good: `{"space": {"small": {"$value": "4px"}}}`,
		Link: specFormat + "#character-restrictions"},
	{ID: ruleInvalidProp, Severity: check.Error, Title: "Property of the wrong kind",
		Why: "$type and $description must be strings, $extensions an object, $deprecated a boolean or a string; tools refuse the token otherwise.",
		Fix: "Give the property the kind of value the format defines.",
		Bad: `{"$description": ["primary"]}`, Good: `{"$description": "The primary color"}`,
		Link: specFormat + "#additional-properties"},
	{ID: ruleUnknownProp, Severity: check.Warning, Title: "Unknown part of a composite value",
		Why:  "Composite types (shadow, border, typography, transition, gradient, strokeStyle) have a fixed set of parts; an extra part is invalid per the specification and is ignored or refused by tools. Vendor data belongs in $extensions.",
		Fix:  "Remove the part, or move it under $extensions.",
		Bad:  `{"$type": "shadow", "$value": {"color": "#000", "offsetX": "0px", "offsetY": "1px", "blur": "2px", "spread": "0px", "alpha": 0.5}}`,
		Good: `{"$type": "shadow", "$value": {"color": "#00000080", "offsetX": "0px", "offsetY": "1px", "blur": "2px", "spread": "0px"}}`,
		Link: specFormat + "#composite-types"},
	{ID: ruleUnit, Severity: check.Warning, Title: "Dimension unit outside px and rem",
		Why: "The format defines dimensions in px and rem only; em, %, vw and others are not portable to iOS and Android, and strict tools refuse them.",
		Fix: "Use px or rem, or another type (number) for relative values.",
		Bad: `{"$type": "dimension", "$value": "1.5em"}`, Good: `{"$type": "dimension", "$value": {"value": 1.5, "unit": "rem"}}`,
		Link: specFormat + "#dimension"},
	{ID: ruleDeprecated, Severity: check.Warning, Title: "Alias of a deprecated token",
		Why: "A token marked $deprecated is on its way out; an alias to it breaks when it is removed.",
		Fix: "Alias the token the deprecation names instead.",
		Bad: `{"old": {"$deprecated": "use new", "$value": "#000"}, "x": {"$value": "{old}"}}`, Good: `{"x": {"$value": "{new}"}}`,
		Link: specFormat + "#deprecated"},
}
