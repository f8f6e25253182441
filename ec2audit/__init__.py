"""ec2audit: audit what LLM agents leak when an edge model works together with a cloud model."""

__version__ = "0.1.0"
