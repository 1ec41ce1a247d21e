/** A word as a POSIX shell reads it back: bare when it is plain, else double-quoted with what is special escaped. */
export const shellWord = (s: string) => (/^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, "\\$1")}"`);
