// Package sequence checks Mermaid sequenceDiagram text: its lexer and parser.
package sequence
