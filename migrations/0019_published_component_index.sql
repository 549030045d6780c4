-- The public page filters by component (`/c/{slug}?component=X`), an anonymous request. Without an
-- index of its own, a component that matches nothing made PostgreSQL walk every published entry of
-- the project and read each row: a cheap request, repeatable with any string, costing a full scan.
-- Components are indexed per project (`<project id>/<component>`), so the lookup touches only the
-- project's matching entries, whatever other tenants tag.
CREATE FUNCTION published_components(project uuid, tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(project::text || '/' || t), '{}') FROM unnest(tags) AS t $$;

CREATE INDEX changelog_entries_published_components_idx
  ON changelog_entries USING gin (published_components(project_id, component_tags)) WHERE status = 'published';
