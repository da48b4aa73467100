// Package syntax is what the Mermaid diagram parsers share: the diagram being checked
// and how it reports findings, source text with file offsets, the token parser, the
// Langium- and rule-driven lexers, the rule table and the lexing helpers.
package syntax
