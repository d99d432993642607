package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

class XmlFormatTest {
    static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
    static final List<String> ELEMENTS = List.of("id", "i", "s", "b", "huge", "dec", "dbl", "flt", "flag", "txt", "d",
            "t", "ts", "tstz", "bin", "uid", "arr", "obj", "txt_2", "_1st", "a_b", "x_y", "_script_");

    static Document parse(byte[] bytes) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
    }

    static List<Element> children(Node parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void roundTripWithDomKeepsValuesNamesAndNulls() throws Exception {
        Document doc = parse(SampleRows.write(OutputFormat.XML));
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("data");
        List<Element> items = children(root);
        assertThat(items).hasSize(4).allSatisfy(e -> assertThat(e.getTagName()).isEqualTo("item"));
        for (int r = 0; r < 4; r++) {
            List<Element> cells = children(items.get(r));
            assertThat(cells).extracting(Element::getTagName).containsExactlyElementsOf(ELEMENTS);
            for (int c = 0; c < cells.size(); c++) {
                Element cell = cells.get(c);
                String original = SampleRows.COLUMNS.get(c).name();
                if (original.equals(ELEMENTS.get(c))) {
                    assertThat(cell.hasAttribute("name")).isFalse();
                } else {
                    assertThat(cell.getAttribute("name")).isEqualTo(original);
                }
                String expected = Expected.TEXT[r][c];
                String label = "row " + r + " " + ELEMENTS.get(c);
                if (expected == null) {
                    assertThat(cell.getAttributeNS(XSI, "nil")).as(label).isEqualTo("true");
                    assertThat(cell.getFirstChild()).as(label).isNull();
                    continue;
                }
                assertThat(cell.hasAttributeNS(XSI, "nil")).as(label).isFalse();
                if (c == 16 || c == 17) {
                    continue; // arr, obj: nested, checked below
                }
                assertThat(cell.getTextContent()).as(label).isEqualTo(Values.xmlSafe(expected));
            }
        }
        // nesting: lists as <value>, maps as named children, NULL inside as xsi:nil
        Element arr = children(items.get(0)).get(16);
        List<Element> values = children(arr);
        assertThat(values).extracting(Element::getTagName).containsOnly("value");
        assertThat(values).extracting(Element::getTextContent).containsExactly("1", "two", "", "34", "True");
        assertThat(values.get(2).getAttributeNS(XSI, "nil")).isEqualTo("true");
        assertThat(children(values.get(3))).extracting(Element::getTextContent).containsExactly("3", "4");
        Element obj = children(items.get(0)).get(17);
        assertThat(children(obj)).extracting(Element::getTagName)
                .containsExactly("k", "n", "nil", "inner", "key_with_space");
        assertThat(children(obj).get(4).getAttribute("name")).isEqualTo("key with space");
        assertThat(children(children(obj).get(3)).get(0).getTextContent()).isEqualTo("1.5");
        // an empty string is an empty element without xsi:nil
        Element empty = children(items.get(1)).get(18);
        assertThat(empty.getTextContent()).isEmpty();
        assertThat(empty.hasAttributeNS(XSI, "nil")).isFalse();
    }

    @Test
    void carriageReturnsSurviveAndControlCharactersAreRemoved() throws Exception {
        String text = new String(SampleRows.write(OutputFormat.XML), StandardCharsets.UTF_8);
        assertThat(text).contains("line1\nline2&#xd;\nline3&#xd;end").doesNotContain("\u0001").doesNotContain("\u0000");
        assertThat(text).contains("&lt;b>&amp;amp;&lt;/b>");
        assertThat(text).startsWith("<?xml version='1.0' encoding='UTF-8'?>\n<data xmlns:xsi=\"" + XSI + "\">");
    }

    @Test
    void jacksonXmlReadsTheDocument() throws Exception {
        JsonNode tree = new XmlMapper().readTree(SampleRows.write(OutputFormat.XML));
        JsonNode items = tree.get("item");
        assertThat(items.isArray()).isTrue();
        assertThat(items).hasSize(4);
        assertThat(items.get(0).get("id").asText()).isEqualTo("9223372036854775807");
        assertThat(items.get(0).get("dec").asText()).isEqualTo("12345678901234567890.123456789");
        assertThat(items.get(0).get("tstz").asText()).isEqualTo(Expected.local("2024-01-02T03:04:05.654321+05:30"));
        assertThat(items.get(2).get("id").isNull()).isTrue(); // xsi:nil -> null
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1st|_1st", "a b|a_b", "x:y|x_y", "<script>|_script_", "''|_", "xmlns|_xmlns", "XMLdata|_XMLdata",
        "-a|_-a", ".a|_.a", "ok_name|ok_name", "café|café", "名前|名前", "a😀b|a_b", "Ελληνικά|Ελληνικά", "кириллица|кириллица", "日本語かな|日本語かな", "한국어|한국어", "עברית|עברית", "العربية|العربية", "हिन्दी|हिन्दी", "ไทย|ไทย", "a/b\\c|a_b_c", "é1|é1"})
    void elementNamesAreValidNcNames(String column, String element) throws Exception {
        String name = ColumnNames.xmlName(column);
        assertThat(name).isEqualTo(element);
        parse(("<" + name + " xmlns:x='urn:x'/>").getBytes(StandardCharsets.UTF_8)); // well-formed
    }

    @Test
    void sanitisedNamesThatCollideStayDistinct() throws Exception {
        var out = new java.io.ByteArrayOutputStream();
        RowWriter w = OutputFormat.XML.newWriter(out);
        w.columns(List.of(SampleRows.col("a b", "INT", java.sql.JDBCType.INTEGER),
                SampleRows.col("a_b", "INT", java.sql.JDBCType.INTEGER),
                SampleRows.col("a b", "INT", java.sql.JDBCType.INTEGER)));
        w.row(new Object[] {1, 2, 3});
        w.finish();
        Element item = children(parse(out.toByteArray()).getDocumentElement()).get(0);
        assertThat(children(item)).extracting(Element::getTagName).containsExactly("a_b", "a_b_2", "a_b_3");
        assertThat(children(item)).extracting(e -> e.getAttribute("name")).containsExactly("a b", "a_b", "a b");
    }
}
