def render(template, context, autoescape=True):
    out = template.format(**context)
    if autoescape:
        out = out.replace("<", "&lt;")
    return out
