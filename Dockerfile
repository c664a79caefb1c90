FROM python:3.11-slim
WORKDIR /srv
COPY pyproject.toml ./
COPY app ./app
COPY games ./games
COPY migrations ./migrations
COPY alembic.ini ./
COPY static ./static
RUN pip install --no-cache-dir -e .
EXPOSE 8000
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000", "--ws-max-size", "65536",
     "--http", "app.guard.deadlines:HeaderDeadline", "--ws", "app.guard.lean_ws:LeanWebSocket"]
