#!/bin/sh
# maintainer: mary90@example.org
export BILLING_API_HOST='10.162.219.71'
export OPENAI_API_KEY='sk-proj-vuTjyIUzfp2nZcgdXKmA9JVSgl4hh1DczfIWDjo9'
export TIMEOUT_SECONDS='45'
export WAREHOUSE_HOST='10.1.187.124'
export STRIPE_SECRET_KEY='sk_live_ZIw6kpOcNqfptwiNL2oLhC5q6mEd'
export MAX_RETRIES='6'
export METRICS_HOST='10.100.179.23'
export DB_PASSWORD='Axo7neGpOYvLxmLQvy'
export BATCH_SIZE='72'
export QUEUE_HOST='10.80.97.5'
export AWS_ACCESS_KEY_ID='AKIAZ64N246L3OTB332F'
export POOL_SIZE='41'
