DEBUG = False
ALLOWED_HOSTS = ['example.com', 'www.example.com']
DATABASES = {
    'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': 'shop'}
}
