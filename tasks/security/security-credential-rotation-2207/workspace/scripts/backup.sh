#!/bin/sh
# 负责人: guyan@example.net
export API_HOST='10.17.32.220'
export STRIPE_KEY_30='sk_live_ujrQzdK9ze3sbj53iH0MA91sNMlU'
export AWS_ACCESS_KEY_31='AKIAXURFSJMEXK3OQKWZ'
export DB_PASSWORD_32='tv27CEQxtINWQCC8ID'
export GITHUB_TOKEN_33='ghp_dgcXM7LdRLpDTyY5oqW8VmNhxyvbsZiNgkHW'
