/**
 * Delivering the audit log to a SIEM: the outputs (syslog RFC 5424 over TCP, TLS or mutual TLS with RFC 6587 octet
 * counting; OTLP logs over HTTP/JSON), and one deliverer per output that holds the output's lease in the store,
 * sends what follows its cursor and moves the cursor only once the receiver took it (at least once).
 */
package io.queryapigate.siem;
