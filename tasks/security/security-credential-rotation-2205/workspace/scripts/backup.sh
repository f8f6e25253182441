#!/bin/sh
# owner: stokescasey@example.com
export API_HOST='10.19.66.251'
export AWS_ACCESS_KEY_30='AKIAFMYLCQGTXVODRYUK'
export DB_PASSWORD_31='vEh0YCFdYDbfHKGE1R'
export GITHUB_TOKEN_32='ghp_LRPmX88hrqOCGmWh0iXKO1XsaETsgUgNjcno'
