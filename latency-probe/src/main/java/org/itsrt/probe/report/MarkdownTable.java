package org.itsrt.probe.report;

import java.util.ArrayList;
import java.util.List;

/** A Markdown table: header, alignment, rows; numbers right-aligned by the caller's choice. */
public final class MarkdownTable {

    private final List<String> header;
    private final boolean[] right;
    private final List<List<String>> rows = new ArrayList<>();

    /** @param rightAligned which columns are right-aligned (numbers) */
    public MarkdownTable(List<String> header, boolean... rightAligned) {
        this.header = List.copyOf(header);
        this.right = new boolean[header.size()];
        for (int i = 0; i < header.size(); i++) {
            right[i] = i < rightAligned.length && rightAligned[i];
        }
    }

    public MarkdownTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, header " + header.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        line(text, header);
        text.append('|');
        for (boolean r : right) {
            text.append(r ? "---:|" : "---|");
        }
        text.append('\n');
        for (List<String> row : rows) {
            line(text, row);
        }
        return text.toString();
    }

    private static void line(StringBuilder text, List<String> cells) {
        text.append('|');
        for (String cell : cells) {
            text.append(' ').append(cell.replace("|", "\\|")).append(" |");
        }
        text.append('\n');
    }
}
