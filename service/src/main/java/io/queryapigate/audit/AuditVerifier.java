package io.queryapigate.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditLink;
import io.queryapigate.store.AuditRow;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jdbi.v3.core.Jdbi;

/**
 * Walks the stored chain from its anchor to its head and reports it intact, or the first entry that is not and why:
 * {@code edited} (its hash or its columns do not match its content), {@code removed} (an entry is missing: between
 * two, before the first kept one without a trim moving the anchor, or after the last one the head names),
 * {@code inserted} (an entry that does not follow its predecessor, or lies beyond the head or at or before the
 * anchor), {@code reordered} (an intact entry at another entry's place), {@code unkeyed_after_keyed} (an entry hashed
 * without a key after a keyed one, or a newest entry unkeyed while a key is set). A trim moves the anchor, so it
 * never reads as a removal.
 */
public final class AuditVerifier {
    private static final int PAGE = 1000;
    private final Jdbi jdbi;
    private final AuditChain chain;
    private final ObjectMapper mapper = new ObjectMapper();

    public AuditVerifier(Jdbi jdbi, AuditChain chain) {
        this.jdbi = jdbi;
        this.chain = chain;
    }

    /** The report, as {@code GET /api/v1/audit/verify} and {@code queryapigate audit verify} give it. */
    public Map<String, Object> verify() {
        return jdbi.inTransaction(h -> {
            AuditDao dao = h.attach(AuditDao.class);
            AuditLink anchor = dao.link(AuditDao.ANCHOR).orElse(new AuditLink(0, AuditChain.GENESIS));
            AuditLink head = dao.link(AuditDao.HEAD).orElse(new AuditLink(0, AuditChain.GENESIS));
            return walk(dao, anchor, head);
        });
    }

    private Map<String, Object> walk(AuditDao dao, AuditLink anchor, AuditLink head) {
        long expected = anchor.seq() + 1;
        String expectedPrev = anchor.hash();
        String beforePrev = null;
        AuditRow previous = null;
        int keyed = 0;
        int unchecked = 0;
        long checked = 0;
        long stored = dao.count();
        List<AuditRow> page = dao.after(Long.MIN_VALUE, PAGE);
        while (!page.isEmpty()) {
            for (AuditRow row : page) {
                if (row.seq() <= anchor.seq()) {
                    return broken(checked, stored, row, row.seq(), "inserted",
                            "entry " + row.seq() + " lies at or before the anchor (" + anchor.seq()
                                    + "): retention removed every entry up to it");
                }
                if (row.seq() > head.seq()) {
                    return broken(checked, stored, row, row.seq(), "inserted",
                            "entry " + row.seq() + " lies beyond the head (" + head.seq() + ")");
                }
                if (row.seq() > expected) {
                    return broken(checked, stored, row, expected, "removed", expected == anchor.seq() + 1
                            ? "the oldest kept entry should be " + expected + " (retention trimmed through "
                                    + anchor.seq() + "), but the first stored is " + row.seq()
                            : "entries " + expected + (row.seq() - 1 > expected ? "-" + (row.seq() - 1) : "")
                                    + " are missing");
                }
                JsonNode entry = parse(row.entryJson());
                long claimed = entry == null ? -1 : entry.path("seq").asLong(-1);
                AuditChain.Check check = chain.check(row.hash(), row.prevHash(), claimed, row.entryJson());
                boolean linked = row.prevHash().equals(expectedPrev);
                if (!linked && previous != null && row.prevHash().equals(beforePrev)) {
                    return broken(checked - 1, stored, previous, previous.seq(), "inserted", "entry "
                            + previous.seq() + " was put in: the entry after it links to the one before it");
                }
                if (entry != null && claimed != row.seq() && check != AuditChain.Check.WRONG) {
                    return broken(checked, stored, row, row.seq(), "reordered",
                            "entry " + claimed + " is stored at " + row.seq());
                }
                if (!linked) {
                    if (previous == null || check == AuditChain.Check.WRONG) {
                        return broken(checked, stored, row, row.seq(), "edited", previous == null
                                ? "it does not follow the anchor (the newest entry retention trimmed)"
                                : "its link to entry " + previous.seq() + " was changed");
                    }
                    return broken(checked - 1, stored, previous, previous.seq(), "edited", "entry "
                            + previous.seq() + " was changed and hashed again: the entry after it still links to"
                            + " its old hash");
                }
                if (entry == null || check == AuditChain.Check.WRONG || !columnsMatch(row, entry)) {
                    return broken(checked, stored, row, row.seq(), "edited",
                            "its content does not match its hash or its columns");
                }
                if (check == AuditChain.Check.UNKEYED && keyed > 0) {
                    return broken(checked, stored, row, row.seq(), "unkeyed_after_keyed",
                            "hashed without a key after a keyed entry");
                }
                if (check != AuditChain.Check.UNKEYED) {
                    keyed++;
                    unchecked += check == AuditChain.Check.KEYED_UNCHECKED ? 1 : 0;
                }
                beforePrev = expectedPrev;
                expectedPrev = row.hash();
                expected = row.seq() + 1;
                previous = row;
                checked++;
            }
            page = dao.after(previous == null ? Long.MIN_VALUE : page.get(page.size() - 1).seq(), PAGE);
        }
        if (expected <= head.seq()) {
            return broken(checked, stored, previous, expected, "removed", "the head names entry " + head.seq()
                    + " but the newest stored is " + (expected - 1) + ": entries were deleted from the newest end");
        }
        if (previous != null && !head.hash().equals(previous.hash())) {
            return broken(checked, stored, previous, previous.seq(), "edited",
                    "the head's hash does not match the newest entry's");
        }
        if (chain.keyed() && previous != null && !previous.hash().startsWith(AuditChain.HMAC)) {
            return broken(checked, stored, previous, previous.seq(), "unkeyed_after_keyed",
                    "a key is set, but the newest entry is not signed with one");
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("intact", true);
        report.put("entries", expected - 1 - anchor.seq());
        report.put("first_seq", anchor.seq() + 1);
        report.put("last_seq", expected - 1);
        report.put("trimmed_through", anchor.seq());
        report.put("keyed", keyed > 0);
        report.put("unchecked_without_key", unchecked);
        report.put("entries_stored", stored);
        return report;
    }

    private boolean columnsMatch(AuditRow row, JsonNode entry) {
        return row.atMs() == entry.path("at_ms").asLong()
                && Objects.equals(row.actor(), text(entry, "actor"))
                && Objects.equals(row.actorKind(), text(entry, "actor_kind"))
                && Objects.equals(row.address(), text(entry, "address"))
                && Objects.equals(row.action(), text(entry, "action"))
                && Objects.equals(row.target(), text(entry, "target"))
                && Objects.equals(row.workspace(), text(entry, "workspace"))
                && Objects.equals(row.requestId(), text(entry, "request_id"));
    }

    private static String text(JsonNode entry, String field) {
        JsonNode v = entry.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private JsonNode parse(String json) {
        try {
            JsonNode node = mapper.readTree(json);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    private Map<String, Object> broken(long checked, long stored, AuditRow at, long seq, String problem,
            String detail) {
        Map<String, Object> where = new LinkedHashMap<>();
        where.put("seq", seq);
        JsonNode entry = at == null ? null : parse(at.entryJson());
        where.put("timestamp", entry == null ? null : text(entry, "timestamp"));
        where.put("action", at == null ? null : at.action());
        where.put("problem", problem);
        where.put("detail", detail);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("intact", false);
        report.put("checked", checked);
        report.put("break", where);
        report.put("entries_stored", stored);
        return report;
    }
}
