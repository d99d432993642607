-- One row per built-in function overload (schemas pg_catalog and information_schema), with what the automatic
-- rules of generate.py need. Run by: python3 generate.py postgres
WITH support(oid, why) AS (
    SELECT typinput::oid, 'type input function' FROM pg_type
    UNION ALL SELECT typoutput::oid, 'type output function' FROM pg_type
    UNION ALL SELECT typreceive::oid, 'type receive function' FROM pg_type
    UNION ALL SELECT typsend::oid, 'type send function' FROM pg_type
    UNION ALL SELECT typmodin::oid, 'type modifier input function' FROM pg_type
    UNION ALL SELECT typmodout::oid, 'type modifier output function' FROM pg_type
    UNION ALL SELECT typanalyze::oid, 'type analyze function' FROM pg_type
    UNION ALL SELECT typsubscript::oid, 'type subscript handler' FROM pg_type
    UNION ALL SELECT amhandler::oid, 'access method handler' FROM pg_am
    UNION ALL SELECT lanplcallfoid::oid, 'language handler' FROM pg_language
    UNION ALL SELECT laninline::oid, 'language inline handler' FROM pg_language
    UNION ALL SELECT lanvalidator::oid, 'language validator' FROM pg_language
    UNION ALL SELECT prosupport::oid, 'planner support function' FROM pg_proc
    UNION ALL SELECT oprrest::oid, 'operator restriction selectivity estimator' FROM pg_operator
    UNION ALL SELECT oprjoin::oid, 'operator join selectivity estimator' FROM pg_operator
    UNION ALL SELECT conproc::oid, 'encoding conversion function' FROM pg_conversion
    UNION ALL SELECT prsstart::oid, 'text search parser function' FROM pg_ts_parser
    UNION ALL SELECT prstoken::oid, 'text search parser function' FROM pg_ts_parser
    UNION ALL SELECT prsend::oid, 'text search parser function' FROM pg_ts_parser
    UNION ALL SELECT prsheadline::oid, 'text search parser function' FROM pg_ts_parser
    UNION ALL SELECT prslextype::oid, 'text search parser function' FROM pg_ts_parser
    UNION ALL SELECT tmplinit::oid, 'text search template function' FROM pg_ts_template
    UNION ALL SELECT tmpllexize::oid, 'text search template function' FROM pg_ts_template
    UNION ALL SELECT fdwhandler::oid, 'foreign-data wrapper handler' FROM pg_foreign_data_wrapper
    UNION ALL SELECT fdwvalidator::oid, 'foreign-data wrapper validator' FROM pg_foreign_data_wrapper
    UNION ALL SELECT a.aggtransfn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT a.aggfinalfn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT a.aggcombinefn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT a.aggserialfn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT a.aggdeserialfn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT a.aggmtransfn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT a.aggminvtransfn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT a.aggmfinalfn::oid, 'aggregate support function' FROM pg_aggregate a
    UNION ALL SELECT ap.amproc::oid, 'index operator class support function' FROM pg_amproc ap
)
SELECT lower(p.proname) AS name,
       n.nspname AS schema,
       p.prokind AS kind,
       p.provolatile AS volatility,
       p.proretset AS retset,
       p.prorettype::regtype::text AS rettype,
       coalesce((SELECT string_agg(t::regtype::text, ',' ORDER BY i)
                 FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS a(t, i)
                 WHERE coalesce(p.proargmodes[i], 'i') IN ('i', 'b', 'v')), '')
           AS argtypes,
       coalesce((SELECT string_agg(t::regtype::text, ',' ORDER BY i)
                 FROM unnest(p.proallargtypes) WITH ORDINALITY AS a(t, i)
                 WHERE p.proargmodes[i] IN ('o', 't')), '')
           AS outtypes,
       coalesce((SELECT string_agg(DISTINCT s.why, '; ') FROM support s WHERE s.oid = p.oid), '') AS support,
       coalesce(replace(replace(obj_description(p.oid, 'pg_proc'), E'\t', ' '), E'\n', ' '), '') AS description
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname IN ('pg_catalog', 'information_schema')
ORDER BY 1, 7;
