package io.queryapigate.dialect.clickhouse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * ClickHouse's {@code TabSeparated} text, read incrementally from a response body: one line per row, fields
 * separated by a tab, {@code \N} for NULL, and backslash escapes inside values ({@code \t}, {@code \n}, {@code \\},
 * {@code \'}, {@code \0}, ...). Raw tabs and line feeds never occur inside a value, so a line and its fields are found
 * by scanning bytes.
 *
 * <p>The reader keeps one buffer; a line that fits in it is never copied.
 */
final class Tsv {
    private Tsv() {}

    /**
     * Decodes one backslash escape of ClickHouse's escaped and quoted text.
     *
     * @param s the text
     * @param at the offset of the backslash; a character must follow it
     * @param out where the decoded character goes
     * @return the offset after the escape
     */
    static int unescape(String s, int at, StringBuilder out) {
        char c = s.charAt(at + 1);
        switch (c) {
            case 'n' -> out.append('\n');
            case 't' -> out.append('\t');
            case 'r' -> out.append('\r');
            case '0' -> out.append('\0');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'a' -> out.append('\u0007');
            case 'v' -> out.append('\u000B');
            case 'e' -> out.append('\u001B');
            case 'x' -> {
                if (at + 3 < s.length() && hex(s.charAt(at + 2)) >= 0 && hex(s.charAt(at + 3)) >= 0) {
                    out.append((char) (hex(s.charAt(at + 2)) * 16 + hex(s.charAt(at + 3))));
                    return at + 4;
                }
                out.append('x');
            }
            default -> out.append(c); // \\ \' \" \/ and any other character stand for themselves
        }
        return at + 2;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * Unescapes a whole value.
     *
     * @param s the escaped text
     * @return the value
     */
    static String unescape(String s) {
        int backslash = s.indexOf('\\');
        if (backslash < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        b.append(s, 0, backslash);
        int i = backslash;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                i = unescape(s, i, b);
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    /** Reads lines and fields from a stream. Not thread-safe. */
    static final class Reader {
        private static final byte[] CODE = "Code: ".getBytes(StandardCharsets.US_ASCII);

        private final InputStream in;
        private byte[] buf = new byte[1 << 16];
        private int pos;
        private int lim;
        private boolean eof;
        private long bytesRead;

        // the current line: data[lineStart, lineEnd)
        private byte[] data;
        private int lineStart;
        private int lineEnd;
        private byte[] spill = new byte[1024];
        private int[] fieldStart = new int[16];
        private int[] fieldEnd = new int[16];
        private int fields;

        Reader(InputStream in) {
            this.in = in;
        }

        /**
         * Reads the next line.
         *
         * @return false at the end of the stream
         * @throws IOException when reading fails, or the stream ends inside a line (a row cut off)
         */
        boolean nextLine() throws IOException {
            if (pos >= lim && !fill()) {
                return false;
            }
            int nl = indexOfNewline(buf, pos, lim);
            if (nl >= 0) {
                data = buf;
                lineStart = pos;
                lineEnd = nl;
                pos = nl + 1;
            } else {
                int len = 0;
                while (true) {
                    int stop = nl >= 0 ? nl : lim;
                    int n = stop - pos;
                    if (len + n > spill.length) {
                        spill = Arrays.copyOf(spill, Math.max(spill.length * 2, len + n));
                    }
                    System.arraycopy(buf, pos, spill, len, n);
                    len += n;
                    pos = stop;
                    if (nl >= 0) {
                        pos++;
                        break;
                    }
                    if (!fill()) {
                        throw new IOException("the response ended inside a line (" + len + " bytes without a line"
                                + " feed): the result was cut off");
                    }
                    nl = indexOfNewline(buf, pos, lim);
                }
                data = spill;
                lineStart = 0;
                lineEnd = len;
            }
            split();
            return true;
        }

        private void split() {
            fields = 0;
            int start = lineStart;
            for (int i = lineStart; i < lineEnd; i++) {
                if (data[i] == '\t') {
                    addField(start, i);
                    start = i + 1;
                }
            }
            addField(start, lineEnd);
        }

        private void addField(int start, int end) {
            if (fields == fieldStart.length) {
                fieldStart = Arrays.copyOf(fieldStart, fields * 2);
                fieldEnd = Arrays.copyOf(fieldEnd, fields * 2);
            }
            fieldStart[fields] = start;
            fieldEnd[fields] = end;
            fields++;
        }

        private static int indexOfNewline(byte[] b, int from, int to) {
            for (int i = from; i < to; i++) {
                if (b[i] == '\n') {
                    return i;
                }
            }
            return -1;
        }

        private boolean fill() throws IOException {
            if (eof) {
                return false;
            }
            pos = 0;
            lim = 0;
            int n = in.read(buf, 0, buf.length);
            while (n == 0) {
                n = in.read(buf, 0, buf.length);
            }
            if (n < 0) {
                eof = true;
                return false;
            }
            lim = n;
            bytesRead += n;
            return true;
        }

        /**
         * The number of fields of the current line.
         *
         * @return at least 1
         */
        int fieldCount() {
            return fields;
        }

        /**
         * Whether field {@code f} is {@code \N}.
         *
         * @param f the field index
         * @return true for NULL
         */
        boolean isNull(int f) {
            int s = fieldStart[f];
            return fieldEnd[f] - s == 2 && data[s] == '\\' && data[s + 1] == 'N';
        }

        /**
         * Field {@code f}, unescaped.
         *
         * @param f the field index
         * @return the value's text
         */
        String text(int f) {
            return unescape(raw(f));
        }

        /**
         * Field {@code f} as UTF-8, escapes kept (composite values are parsed from this).
         *
         * @param f the field index
         * @return the field's text
         */
        String raw(int f) {
            return new String(data, fieldStart[f], fieldEnd[f] - fieldStart[f], StandardCharsets.UTF_8);
        }

        /**
         * The current line as UTF-8, for messages.
         *
         * @return the line
         */
        String line() {
            return new String(data, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
        }

        /**
         * Whether the current line starts like the text ClickHouse appends when a query fails after the response
         * began: {@code Code: <digits>,} (18.x to 20.x: {@code Code: 159, e.displayText() = ...}) or {@code Code:
         * <digits>.} (newer: {@code Code: 159. DB::Exception: ...}).
         *
         * @return true when it may be such an error
         */
        boolean looksLikeError() {
            int len = lineEnd - lineStart;
            if (len < CODE.length + 2) {
                return false;
            }
            for (int k = 0; k < CODE.length; k++) {
                if (data[lineStart + k] != CODE[k]) {
                    return false;
                }
            }
            int i = lineStart + CODE.length;
            int digits = 0;
            while (i < lineEnd && data[i] >= '0' && data[i] <= '9') {
                i++;
                digits++;
            }
            return digits > 0 && i < lineEnd && (data[i] == ',' || data[i] == '.');
        }

        /**
         * The current line plus everything after it, when the stream ends within {@code maxBytes} more bytes;
         * otherwise null, and nothing is consumed (reading continues with the next line).
         *
         * @param maxBytes how much may follow
         * @return the text, or null
         * @throws IOException when reading fails
         */
        String lineAndRestIfEndsWithin(int maxBytes) throws IOException {
            // keep the current line safe from the buffer moving underneath it
            int len = lineEnd - lineStart;
            byte[] current = Arrays.copyOfRange(data, lineStart, lineEnd);
            if (data == buf) {
                if (spill.length < len) {
                    spill = new byte[Math.max(len, spill.length * 2)];
                }
                System.arraycopy(current, 0, spill, 0, len);
                data = spill;
                // field offsets are relative to lineStart: rebase them
                for (int f = 0; f < fields; f++) {
                    fieldStart[f] -= lineStart;
                    fieldEnd[f] -= lineStart;
                }
                lineStart = 0;
                lineEnd = len;
            }
            // compact and read ahead
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, lim - pos);
                lim -= pos;
                pos = 0;
            }
            while (!eof && lim <= maxBytes) {
                if (lim == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
                int n = in.read(buf, lim, buf.length - lim);
                if (n < 0) {
                    eof = true;
                } else {
                    lim += n;
                    bytesRead += n;
                }
            }
            if (!eof || lim > maxBytes) {
                return null;
            }
            return new String(current, StandardCharsets.UTF_8) + "\n" + new String(buf, 0, lim, StandardCharsets.UTF_8);
        }

        /**
         * Reads and drops what is left, up to {@code maxBytes}.
         *
         * @param maxBytes the budget
         * @return true when the end of the stream was reached within it
         * @throws IOException when reading fails
         */
        boolean drain(long maxBytes) throws IOException {
            long budget = maxBytes - (lim - pos);
            pos = lim;
            while (!eof && budget >= 0) {
                if (!fill()) {
                    return true;
                }
                budget -= lim;
                pos = lim;
            }
            return eof;
        }

        /**
         * Bytes read from the stream so far.
         *
         * @return the count
         */
        long bytesRead() {
            return bytesRead;
        }
    }
}
