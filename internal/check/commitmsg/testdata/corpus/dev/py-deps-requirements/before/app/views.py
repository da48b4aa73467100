def index(request):
    return None
