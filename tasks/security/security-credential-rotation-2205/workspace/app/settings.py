# owner: imcdonald@example.net
API_HOST = "10.150.19.33"
OPENAI_KEY_00 = "sk-proj-n57mWN5ehIkQXvW4RfoRyk1YAebCQsNysmDGbpGS"
SLACK_TOKEN_01 = "xoxb-4VoIhHBpm1Q6conTXX2QLMIYDRMiOJzuhk8IAYXE"
STRIPE_KEY_02 = "sk_live_PuxkpoeIB2lFGsdtfoEohG6lyQZV"
SENTRY_DSN = "${SENTRY_DSN}"
