// Package flowchart checks Mermaid flowchart/graph text: its lexer, parser and the
// checks Mermaid makes after parsing (shapes, link styles, classes).
package flowchart
