package a11y

import "github.com/cairn-dev/cairn/internal/check"

const axeDocs = "https://dequeuniversity.com/rules/axe/4.10/"

// Rule ids.
const (
	ruleImageAlt       = "a11y/image-alt"
	ruleInputLabel     = "a11y/label"
	ruleHTMLLang       = "a11y/html-has-lang"
	ruleLangValid      = "a11y/html-lang-valid"
	ruleHeadingOrder   = "a11y/heading-order"
	ruleEmptyHeading   = "a11y/empty-heading"
	ruleLinkName       = "a11y/link-name"
	ruleButtonName     = "a11y/button-name"
	ruleAriaRoles      = "a11y/aria-roles"
	ruleAriaValidAttr  = "a11y/aria-valid-attr"
	ruleAriaAttrValue  = "a11y/aria-valid-attr-value"
	ruleAriaAllowed    = "a11y/aria-allowed-attr"
	ruleRedundantRole  = "a11y/redundant-role"
	ruleDuplicateID    = "a11y/duplicate-id"
	ruleDuplicateIDRef = "a11y/duplicate-id-aria"
	ruleContrast       = "a11y/color-contrast"
	ruleTabindex       = "a11y/tabindex"
	ruleDocTitle       = "a11y/document-title"
	ruleAutocomplete   = "a11y/autocomplete-valid"
)

var staticRules = []check.Rule{
	{ID: ruleImageAlt, Severity: check.Error, Title: "image without a text alternative",
		Why: "WCAG 1.1.1 Non-text Content (A): a screen reader announces an image without alt by its file name, or not at all. axe-core: image-alt, input-image-alt, area-alt.",
		Fix: `Give the image an alt that says what it shows or does; alt="" if it is decorative.`,
		Bad: `<img src="chart.png">`, Good: `<img src="chart.png" alt="Sales doubled in March">`, Link: axeDocs + "image-alt"},
	{ID: ruleInputLabel, Severity: check.Error, Title: "form field without a label",
		Why: "WCAG 1.3.1 Info and Relationships and 4.1.2 Name, Role, Value (A): a field without a label is announced as \"edit text\", with nothing to say what to type. axe-core: label, select-name.",
		Fix: `Add <label for="the field's id">, wrap the field in a <label>, or give it aria-label or aria-labelledby.`,
		Bad: `<input type="email" name="email">`, Good: `<label for="email">Email</label> <input type="email" id="email" name="email">`, Link: axeDocs + "label"},
	{ID: ruleHTMLLang, Severity: check.Error, Title: "page without a lang",
		Why: "WCAG 3.1.1 Language of Page (A): without lang a screen reader reads the page in the user's default language, mispronouncing every word.",
		Fix: `Set the page's language on the html element: <html lang="en">.`,
		Bad: `<html>`, Good: `<html lang="en">`, Link: axeDocs + "html-has-lang"},
	{ID: ruleLangValid, Severity: check.Error, Title: "invalid lang value",
		Why: "WCAG 3.1.1 Language of Page (A): a lang that is not a BCP 47 language tag (en_US, english) is ignored.",
		Fix: `Use a BCP 47 tag: a 2- or 3-letter language, then optional subtags joined by hyphens (en, en-GB, pt-BR).`,
		Bad: `<html lang="en_US">`, Good: `<html lang="en-US">`, Link: axeDocs + "html-lang-valid"},
	{ID: ruleHeadingOrder, Severity: check.Warning, Title: "heading level skipped",
		Why: "Headings are how screen-reader users move through a page; a jump from h2 to h4 suggests a missing section. axe-core: heading-order (best practice, supports WCAG 1.3.1).",
		Fix: "Use the next level down (h2 then h3), and style the heading with CSS if it should look smaller.",
		Bad: "<h2>Plans</h2>\n<h4>Pro</h4>", Good: "<h2>Plans</h2>\n<h3>Pro</h3>", Link: axeDocs + "heading-order"},
	{ID: ruleEmptyHeading, Severity: check.Warning, Title: "empty heading",
		Why: "An empty heading is announced as \"heading\" with nothing after it, and sits in the page's outline as a blank. axe-core: empty-heading.",
		Fix: "Put the heading's text in it, or remove the element.",
		Bad: `<h2></h2>`, Good: `<h2>Pricing</h2>`, Link: axeDocs + "empty-heading"},
	{ID: ruleLinkName, Severity: check.Error, Title: "link without text",
		Why: "WCAG 2.4.4 Link Purpose and 4.1.2 Name, Role, Value (A): a link with no text (an icon alone) is announced as its URL or as \"link\".",
		Fix: "Give the link text, an aria-label, or an image inside it with alt text.",
		Bad: `<a href="/cart"><svg class="icon-cart"></svg></a>`, Good: `<a href="/cart" aria-label="Cart"><svg class="icon-cart" aria-hidden="true"></svg></a>`, Link: axeDocs + "link-name"},
	{ID: ruleButtonName, Severity: check.Error, Title: "button without text",
		Why: "WCAG 4.1.2 Name, Role, Value (A): a button with no text is announced as \"button\", with nothing to say what it does. axe-core: button-name, input-button-name.",
		Fix: "Give the button text, an aria-label, or (an input button) a value.",
		Bad: `<button class="close">×</button>` + "\n" + `<button><i class="icon-x"></i></button>`, Good: `<button aria-label="Close"><i class="icon-x" aria-hidden="true"></i></button>`, Link: axeDocs + "button-name"},
	{ID: ruleAriaRoles, Severity: check.Error, Title: "invalid ARIA role",
		Why: "WCAG 4.1.2 Name, Role, Value (A): a role that WAI-ARIA does not define, or an abstract one, leaves the element without the role it was meant to have.",
		Fix: "Use a role WAI-ARIA 1.2 defines (button, dialog, navigation…), or remove it.",
		Bad: `<div role="dropdown">`, Good: `<div role="listbox">`, Link: axeDocs + "aria-roles"},
	{ID: ruleAriaValidAttr, Severity: check.Error, Title: "unknown ARIA attribute",
		Why: "WCAG 4.1.2 (A): an aria-* attribute WAI-ARIA does not define (a typo: aria-labeledby) does nothing.",
		Fix: "Use the attribute's right name (aria-labelledby), or remove it.",
		Bad: `<input aria-labeledby="name-label">`, Good: `<input aria-labelledby="name-label">`, Link: axeDocs + "aria-valid-attr"},
	{ID: ruleAriaAttrValue, Severity: check.Error, Title: "invalid ARIA attribute value",
		Why: "WCAG 4.1.2 (A): a value the attribute does not take (aria-expanded=\"yes\", aria-live=\"loud\") or an id that is not on the page is ignored.",
		Fix: "Use one of the values the attribute takes, or an id of an element on the page.",
		Bad: `<button aria-expanded="yes">`, Good: `<button aria-expanded="true">`, Link: axeDocs + "aria-valid-attr-value"},
	{ID: ruleAriaAllowed, Severity: check.Error, Title: "ARIA attribute the role does not support",
		Why: "WCAG 4.1.2 (A): a state the element's role does not have (aria-checked on a link) is not announced, and suggests the wrong role.",
		Fix: "Give the element the role that has the state (role=\"checkbox\"), or remove the attribute.",
		Bad: `<a href="#" aria-checked="true">Bold</a>`, Good: `<button aria-pressed="true">Bold</button>`, Link: axeDocs + "aria-allowed-attr"},
	{ID: ruleRedundantRole, Severity: check.Warning, Title: "role the element already has",
		Why: "ARIA in HTML: role=\"button\" on a <button> repeats its implicit role; it is noise, and hides a real role change when one is made.",
		Fix: "Remove the role attribute.",
		Bad: `<nav role="navigation">`, Good: `<nav>`, Link: "https://www.w3.org/TR/html-aria/#docconformance"},
	{ID: ruleDuplicateID, Severity: check.Warning, Title: "duplicate id",
		Why: "Two elements with one id: labels, aria references and fragment links reach only the first. axe-core: duplicate-id.",
		Fix: "Make each id unique on the page.",
		Bad: "<div id=\"main\">…</div>\n<div id=\"main\">…</div>", Good: "<div id=\"main\">…</div>\n<div id=\"aside\">…</div>", Link: axeDocs + "duplicate-id"},
	{ID: ruleDuplicateIDRef, Severity: check.Error, Title: "duplicate id used by a label or ARIA",
		Why: "WCAG 4.1.2 (A): a label for= or aria-labelledby pointing at an id that two elements carry names the wrong one. axe-core: duplicate-id-aria.",
		Fix: "Make the id unique, so the label or reference names one element.",
		Bad: "<label for=\"q\">Search</label><input id=\"q\">\n<input id=\"q\">", Good: "<label for=\"q\">Search</label><input id=\"q\">\n<input id=\"q2\">", Link: axeDocs + "duplicate-id-aria"},
	{ID: ruleContrast, Severity: check.Error, Title: "text contrast below WCAG AA",
		Why: "WCAG 1.4.3 Contrast (Minimum) (AA): text needs a contrast ratio of 4.5:1 with its background (3:1 when large: 24px, or 18.66px bold). Checked where both colors are inline styles.",
		Fix: "Darken the text or lighten the background until the ratio is at least 4.5:1 (3:1 for large text).",
		Bad: `<p style="color:#999;background:#fff">Terms apply</p>`, Good: `<p style="color:#595959;background:#fff">Terms apply</p>`, Link: axeDocs + "color-contrast"},
	{ID: ruleTabindex, Severity: check.Warning, Title: "positive tabindex",
		Why: "A tabindex above 0 moves the element ahead of the page's order, so keyboard focus jumps around the page (WCAG 2.4.3 Focus Order). axe-core: tabindex.",
		Fix: `Use tabindex="0" (in order) or "-1" (focusable by script), and order the markup as it should be read.`,
		Bad: `<input tabindex="3">`, Good: `<input>`, Link: axeDocs + "tabindex"},
	{ID: ruleDocTitle, Severity: check.Error, Title: "page without a title",
		Why: "WCAG 2.4.2 Page Titled (A): the title is the first thing announced, and what names the tab and the history entry.",
		Fix: "Add a <title> in <head> that says what the page is.",
		Bad: "<head><meta charset=\"utf-8\"></head>", Good: "<head><meta charset=\"utf-8\"><title>Orders · Shop</title></head>", Link: axeDocs + "document-title"},
	{ID: ruleAutocomplete, Severity: check.Error, Title: "invalid autocomplete value",
		Why: "WCAG 1.3.5 Identify Input Purpose (AA): an autocomplete token the HTML spec does not define (autocomplete=\"phone\") tells the browser and assistive tech nothing.",
		Fix: "Use the spec's tokens: tel, email, given-name, street-address, current-password… or on/off.",
		Bad: `<input name="phone" autocomplete="phone">`, Good: `<input name="phone" autocomplete="tel">`, Link: axeDocs + "autocomplete-valid"},
}

// axeRuleIDs are axe-core 4.10's rules; a violation of rule X from a
// rendered audit is the finding a11y/axe-X.
var axeRuleIDs = []string{"accesskeys", "area-alt", "aria-allowed-attr", "aria-allowed-role", "aria-braille-equivalent",
	"aria-command-name", "aria-conditional-attr", "aria-deprecated-role", "aria-dialog-name", "aria-hidden-body", "aria-hidden-focus",
	"aria-input-field-name", "aria-meter-name", "aria-progressbar-name", "aria-prohibited-attr", "aria-required-attr",
	"aria-required-children", "aria-required-parent", "aria-roledescription", "aria-roles", "aria-tab-name", "aria-text",
	"aria-toggle-field-name", "aria-tooltip-name", "aria-treeitem-name", "aria-valid-attr", "aria-valid-attr-value", "audio-caption",
	"autocomplete-valid", "avoid-inline-spacing", "blink", "button-name", "bypass", "color-contrast", "color-contrast-enhanced",
	"css-orientation-lock", "definition-list", "dlitem", "document-title", "duplicate-id", "duplicate-id-active", "duplicate-id-aria",
	"empty-heading", "empty-table-header", "focus-order-semantics", "form-field-multiple-labels", "frame-focusable-content",
	"frame-tested", "frame-title", "frame-title-unique", "heading-order", "hidden-content", "html-has-lang", "html-lang-valid",
	"html-xml-lang-mismatch", "identical-links-same-purpose", "image-alt", "image-redundant-alt", "input-button-name",
	"input-image-alt", "label", "label-content-name-mismatch", "label-title-only", "landmark-banner-is-top-level",
	"landmark-complementary-is-top-level", "landmark-contentinfo-is-top-level", "landmark-main-is-top-level",
	"landmark-no-duplicate-banner", "landmark-no-duplicate-contentinfo", "landmark-no-duplicate-main", "landmark-one-main",
	"landmark-unique", "link-in-text-block", "link-name", "list", "listitem", "marquee", "meta-refresh", "meta-refresh-no-exceptions",
	"meta-viewport", "meta-viewport-large", "nested-interactive", "no-autoplay-audio", "object-alt", "p-as-heading",
	"page-has-heading-one", "presentation-role-conflict", "region", "role-img-alt", "scope-attr-valid", "scrollable-region-focusable",
	"select-name", "server-side-image-map", "skip-link", "summary-name", "svg-img-alt", "tabindex", "table-duplicate-name",
	"table-fake-caption", "target-size", "td-has-header", "td-headers-attr", "th-has-data-cells", "valid-lang", "video-caption"}

func buildRules() []check.Rule {
	out := append([]check.Rule(nil), staticRules...)
	for _, id := range axeRuleIDs {
		out = append(out, check.Rule{
			ID: "a11y/axe-" + id, Severity: check.Warning, Title: "axe-core: " + id,
			Why: "A violation axe-core's rule " + id + " found on the rendered page (Chromium, headless): it sees the CSS, the scripts' DOM and the computed colors the markup checks cannot.",
			Fix: "Follow the rule's page (the link) for this element; the finding names the element's CSS selector.",
			Bad: "(see the rule's page)", Good: "(see the rule's page)",
			Link: axeDocs + id,
		})
	}
	return out
}
