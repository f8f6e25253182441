#!/bin/sh
# 负责人: qiang29@example.net
export API_HOST='10.246.169.44'
export GITHUB_TOKEN_30='ghp_OTAyNsElMLPmbTnMmn5aukuJvd03V95Mlhls'
export OPENAI_KEY_31='sk-proj-9htO7E3GnbJs0BBrY96e5wkeH20AUVlBvAtrgnAJ'
