// Package state checks Mermaid stateDiagram(-v2) text: its lexer and parser.
package state
