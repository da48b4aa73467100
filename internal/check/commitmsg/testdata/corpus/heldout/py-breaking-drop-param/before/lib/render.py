def render(template, context, autoescape=True, strict=False):
    out = template.format(**context)
    if autoescape:
        out = out.replace("<", "&lt;")
    return out
