/** A name as a quoted SQL identifier (field names such as `_timestamp` and `sort` are left as they are). */
export const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;
