# owner: mathew53@example.org
API_HOST = "10.96.156.132"
DB_PASSWORD_00 = "iwh484SuZDxu5Dj9JH"
GITHUB_TOKEN_01 = "ghp_zPxgyXHaWTlDehobrkFF7Pr9ZtK3ma1jNIWb"
OPENAI_KEY_02 = "sk-proj-fYJewpwRRrJkEPKQqYOHynwunmb2PQcKz0h9qQPK"
SENTRY_DSN = "${SENTRY_DSN}"
