package mcpserver

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Lists are the tools, prompts and instructions a server of this build
// serves with the given toolsets at the start of a session: what a bridge
// shows before its remote has ever answered.
func Lists(toolsets []string, readOnly bool) (tools []*mcp.Tool, prompts []*mcp.Prompt, instr string, err error) {
	want, err := resolveToolsets(toolsets)
	if err != nil {
		return nil, nil, "", err
	}
	for _, t := range selectTools(want, readOnly) {
		def := definition(t)
		tools = append(tools, &def)
	}
	for _, p := range allPrompts() {
		if want[p.toolset] {
			def := p.def
			prompts = append(prompts, &def)
		}
	}
	return tools, prompts, instructions(want), nil
}
