package bridge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// registry mirrors the remote's lists into the local server, so that the
// local client's tools/list (and the others) work from the last known lists
// while the remote is down, and so that a change is announced with the SDK's
// own list_changed notifications. Items are keyed by name (URI, template)
// and compared by their JSON: an unchanged item is not re-added, so an
// unchanged list sends no notification.
type registry struct {
	tools, prompts, resources, templates map[string]string
}

func newRegistry() *registry {
	return &registry{tools: map[string]string{}, prompts: map[string]string{}, resources: map[string]string{}, templates: map[string]string{}}
}

// apply brings the local server's lists to s; b.regMu is held.
func (b *Bridge) apply(s *snapshot) {
	r := b.reg
	syncList(b, r.tools, s.Tools, func(t *mcp.Tool) string { return t.Name },
		func(names ...string) { b.server.RemoveTools(names...) },
		func(t *mcp.Tool) { b.server.AddTool(t, b.toolHandler) })
	syncList(b, r.prompts, s.Prompts, func(p *mcp.Prompt) string { return p.Name },
		func(names ...string) { b.server.RemovePrompts(names...) },
		func(p *mcp.Prompt) { b.server.AddPrompt(p, b.promptHandler) })
	syncList(b, r.resources, s.Resources, func(x *mcp.Resource) string { return x.URI },
		func(uris ...string) { b.server.RemoveResources(uris...) },
		func(x *mcp.Resource) { b.server.AddResource(x, b.resourceHandler) })
	syncList(b, r.templates, s.ResourceTemplates, func(x *mcp.ResourceTemplate) string { return x.URITemplate },
		func(ts ...string) { b.server.RemoveResourceTemplates(ts...) },
		func(x *mcp.ResourceTemplate) { b.server.AddResourceTemplate(x, b.resourceHandler) })
}

func syncList[T any](b *Bridge, have map[string]string, items []*T, key func(*T) string, remove func(...string), add func(*T)) {
	want := make(map[string]string, len(items))
	for _, it := range items {
		if it == nil {
			continue
		}
		j, err := json.Marshal(it)
		if err != nil {
			continue
		}
		want[key(it)] = string(j)
	}
	var gone []string
	for k := range have {
		if _, ok := want[k]; !ok {
			gone = append(gone, k)
		}
	}
	if len(gone) > 0 {
		remove(gone...)
		for _, k := range gone {
			delete(have, k)
		}
	}
	for _, it := range items {
		if it == nil {
			continue
		}
		k := key(it)
		if j, ok := want[k]; ok && have[k] != j {
			// The SDK panics on an item it cannot serve (a tool whose input
			// schema is not an object, an invalid URI template). Such an
			// item is still reachable while the remote is up, since calls
			// are forwarded by name; it just cannot be listed from cache.
			if err := safely(func() { add(it) }); err != nil {
				b.log.Warn("cannot list a remote item locally", "item", k, "error", err)
				continue
			}
			have[k] = j
		}
	}
}

func safely(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}

// The handlers of the mirrored items. Calls are forwarded by the receiving
// middleware before the SDK looks items up, so these run only if a request
// reaches the SDK's own dispatch; they forward all the same.

func (b *Bridge) toolHandler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return b.callTool(ctx, req.Params)
}

func (b *Bridge) promptHandler(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return b.getPrompt(ctx, req.Params)
}

func (b *Bridge) resourceHandler(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return b.readResource(ctx, req.Params)
}
