# One image for web, worker, beat and the one-shot migrate service (see docker-compose.yml).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PARLOUR_VAR_DIR=/app/var

WORKDIR /app

# Dependencies first (read from pyproject.toml), so code changes do not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

COPY . .
RUN pip install --no-deps -e . \
    && DJANGO_ENV=production SECRET_KEY=collectstatic-only EMAIL_HOST=localhost ALLOWED_HOSTS=localhost \
       python manage.py collectstatic --no-input \
    && useradd --create-home --uid 1000 parlour \
    && mkdir -p /app/var && chown -R parlour /app/var

USER parlour
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
