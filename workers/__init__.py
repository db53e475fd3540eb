"""The backend: key sessions, the document API, agent ingress and the assistant's tools."""
