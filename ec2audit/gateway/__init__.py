"""ec2audit where traffic already flows: probe any LLM gateway position by position (`check`, over the
`positions` registry and the `forms` of a value), and plug ec2audit into a LiteLLM proxy (`litellm`).
"""
