#!/bin/sh
# 负责人: chaoliang@example.net
export API_HOST='10.120.49.70'
export DB_PASSWORD_30='JKY3IGSspHnQ3AjNOv'
export GITHUB_TOKEN_31='ghp_jH3oQxLm019HIMuLabArqJKxeeJRaIRC26pb'
export OPENAI_KEY_32='sk-proj-7i1YZykdeyrdYs8uVhl2PG9KMSeJcAZbcxEpC4hl'
