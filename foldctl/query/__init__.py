"""Questions over fold graphs — records, grep, locate, diff, sessions — answered as plain data."""
