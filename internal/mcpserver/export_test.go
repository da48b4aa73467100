package mcpserver

// Exported for the external tests.
var (
	ToolsetTokens = toolsetTokens
	ToolsetOf     = toolsetOf
)
