package io.queryapigate.output.format;

import com.ctc.wstx.api.WstxOutputProperties;
import com.ctc.wstx.stax.WstxOutputFactory;
import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * XML, written with StAX (Woodstox, which jackson-dataformat-xml brings):
 *
 * <pre>{@code
 * <?xml version='1.0' encoding='UTF-8'?>
 * <data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 * <item><id>1</id><_1st name="1st">x</_1st><note xsi:nil="true"/><tags><value>a</value></tags></item>
 * <truncated rows="1000">row limit 1000 reached</truncated>
 * </data>
 * }</pre>
 *
 * Element names are {@link ColumnNames#xmlName} of the column names, made distinct with {@code _2}, {@code _3};
 * when an element's name differs from the column's, a {@code name} attribute holds the original. NULL is an empty
 * element with {@code xsi:nil="true"}; an empty string is an empty element without it. Lists nest as {@code
 * <value>} children, maps as one child per key (named like columns). Characters XML 1.0 cannot carry are removed;
 * CR is written as {@code &#13;} so it survives parsing. The {@code <truncated>} element is only there when the
 * result was cut short.
 */
final class XmlRowWriter extends AbstractRowWriter {
    static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
    private static final XMLOutputFactory FACTORY = factory();

    private XMLStreamWriter xml;
    private String[] elements;
    private String[] originals;

    XmlRowWriter(OutputStream out, WriterOptions options) {
        super(out, options);
    }

    private static XMLOutputFactory factory() {
        WstxOutputFactory f = new WstxOutputFactory();
        f.setProperty(WstxOutputProperties.P_OUTPUT_ESCAPE_CR, true);
        f.setProperty(XMLOutputFactory.IS_REPAIRING_NAMESPACES, false);
        f.setProperty(org.codehaus.stax2.XMLOutputFactory2.P_AUTOMATIC_EMPTY_ELEMENTS, true);
        return f;
    }

    @Override
    public OutputFormat format() {
        return OutputFormat.XML;
    }

    @Override
    protected void start(List<ColumnInfo> columns) throws IOException {
        elements = new String[columns.size()];
        originals = new String[columns.size()];
        List<String> sanitized = new java.util.ArrayList<>(columns.size());
        for (ColumnInfo c : columns) {
            sanitized.add(ColumnNames.xmlName(c.name()));
        }
        List<String> distinct = ColumnNames.distinct(sanitized);
        for (int i = 0; i < elements.length; i++) {
            elements[i] = distinct.get(i);
            String original = columns.get(i).name();
            originals[i] = original.equals(elements[i]) ? null : Values.xmlSafe(original);
        }
        try {
            xml = FACTORY.createXMLStreamWriter(out, "UTF-8");
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("data");
            xml.writeNamespace("xsi", XSI);
            xml.writeCharacters("\n");
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
    }

    @Override
    protected void writeRow(Object[] values) throws IOException {
        try {
            xml.writeStartElement("item");
            for (int i = 0; i < elements.length; i++) {
                writeElement(elements[i], originals[i], values[i]);
            }
            xml.writeEndElement();
            xml.writeCharacters("\n");
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
    }

    private void writeElement(String element, String original, Object v) throws XMLStreamException {
        xml.writeStartElement(element);
        if (original != null) {
            xml.writeAttribute("name", original);
        }
        if (v == null) {
            xml.writeAttribute("xsi", XSI, "nil", "true");
        } else if (v instanceof List<?> list) {
            for (Object o : list) {
                writeElement("value", null, o);
            }
        } else if (v instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                String name = ColumnNames.xmlName(key);
                writeElement(name, name.equals(key) ? null : Values.xmlSafe(key), e.getValue());
            }
        } else {
            String text = Values.text(v);
            if (!text.isEmpty()) {
                xml.writeCharacters(Values.xmlSafe(text));
            }
        }
        xml.writeEndElement();
    }

    @Override
    protected void flushBuffered() throws IOException {
        try {
            xml.flush();
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
    }

    @Override
    protected void complete() throws IOException {
        try {
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.flush();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
    }

    @Override
    protected void completeTruncated(String reason) throws IOException {
        try {
            xml.writeStartElement("truncated");
            xml.writeAttribute("rows", Long.toString(rows()));
            xml.writeCharacters(Values.xmlSafe(reason));
            xml.writeEndElement();
            xml.writeCharacters("\n");
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
        complete();
    }
}
