"""The model assistant: any OpenAI-compatible endpoint with tool calling (R30–R36)."""
