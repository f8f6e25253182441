#!/bin/sh
# 服务配置，负责人 leimao@example.org
export BILLING_API_HOST='10.195.154.141'
export SLACK_BOT_TOKEN='xoxb-EfvoiUkoG5YtEe3RObr6IYTe2prSqYmfoysnDUmf'
export TIMEOUT_SECONDS='43'
export WAREHOUSE_HOST='10.175.213.153'
export OPENAI_API_KEY='sk-proj-kTdVfK2dRlAjkfu88QrXqEbwnOkSVUYwzXB4MEwn'
export MAX_RETRIES='69'
export METRICS_HOST='10.94.216.228'
export STRIPE_SECRET_KEY='sk_live_ErZ87kYQG1uRUhMz0eimwZi4QpYK'
export BATCH_SIZE='43'
export QUEUE_HOST='10.203.211.63'
export DB_PASSWORD='G8gpa6stw4dRty9tbx'
export POOL_SIZE='16'
