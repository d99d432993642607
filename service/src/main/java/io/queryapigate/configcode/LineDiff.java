package io.queryapigate.configcode;

import java.util.ArrayList;
import java.util.List;

/** A unified diff of two texts by lines (longest common subsequence), as a reviewer reads SQL changes. */
final class LineDiff {
    private static final int CONTEXT = 2;

    private LineDiff() {}

    /** The hunks ({@code @@ -a,b +c,d @@}, then lines starting with ' ', '-' or '+'); empty when equal. */
    static List<String> unified(String before, String after) {
        String[] a = lines(before);
        String[] b = lines(after);
        int[][] common = new int[a.length + 1][b.length + 1];
        for (int i = a.length - 1; i >= 0; i--) {
            for (int j = b.length - 1; j >= 0; j--) {
                common[i][j] = a[i].equals(b[j]) ? common[i + 1][j + 1] + 1
                        : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        List<Edit> edits = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.length || j < b.length) {
            if (i < a.length && j < b.length && a[i].equals(b[j])) {
                edits.add(new Edit(' ', a[i], i++, j++));
            } else if (i < a.length && (j == b.length || common[i + 1][j] >= common[i][j + 1])) {
                edits.add(new Edit('-', a[i], i++, j));
            } else {
                edits.add(new Edit('+', b[j], i, j++));
            }
        }
        return hunks(edits);
    }

    private record Edit(char mark, String line, int before, int after) {}

    private static List<String> hunks(List<Edit> edits) {
        List<String> out = new ArrayList<>();
        int k = 0;
        while (k < edits.size()) {
            if (edits.get(k).mark() == ' ') {
                k++;
                continue;
            }
            int start = Math.max(0, k - CONTEXT);
            int end = k;
            int quiet = 0;
            for (int m = k; m < edits.size() && quiet <= 2 * CONTEXT; m++) {
                if (edits.get(m).mark() == ' ') {
                    quiet++;
                } else {
                    quiet = 0;
                    end = m;
                }
            }
            end = Math.min(edits.size() - 1, end + CONTEXT);
            int beforeCount = 0;
            int afterCount = 0;
            for (int m = start; m <= end; m++) {
                char mark = edits.get(m).mark();
                beforeCount += mark == '+' ? 0 : 1;
                afterCount += mark == '-' ? 0 : 1;
            }
            Edit first = edits.get(start);
            out.add("@@ -" + (first.before() + (beforeCount == 0 ? 0 : 1)) + "," + beforeCount + " +"
                    + (first.after() + (afterCount == 0 ? 0 : 1)) + "," + afterCount + " @@");
            for (int m = start; m <= end; m++) {
                out.add(edits.get(m).mark() + edits.get(m).line());
            }
            k = end + 1;
        }
        return out;
    }

    private static String[] lines(String text) {
        return text == null || text.isEmpty() ? new String[0] : text.split("\n", -1);
    }
}
