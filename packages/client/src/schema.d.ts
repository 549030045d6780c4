// Generated from the service's /openapi.json by `npm run client:generate` (openapi-typescript).
// Do not edit: a test fails when this file differs from what the served document produces.

export interface paths {
    "/c/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public changelog page of a project (HTML)
         * @description Public, server-rendered HTML for projects without a site of their own: published entries newest first, 20 a page, one view at a time (`view`: the project's default unless the reader picks releases, weekly, monthly, daily, every change or all; the default is releases when the project has published the note of a tagged release and its managers chose nothing else), filterable by component (entry views), each with a permalink and its date (a rollup's period start, a release's date). Titles render their inline Markdown. Themed with the project's colour and logo. Sends `ETag`, `Last-Modified`, `Cache-Control`; answers 304. Links its feeds with `<link rel="alternate">`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only entries tagged with this component. */
                    component?: string;
                    /** @description Page of 20 entries, 1 first. */
                    page?: number;
                    /** @description Only entries of this type. */
                    type?: "" | "commit" | "daily" | "weekly" | "monthly";
                    /** @description What to show: published release notes (releases), one kind of entry (weekly, monthly, daily, commit: every change) or all entries. Default: the project's choice, else releases once it has published the note of a tagged release, else the first of weekly, monthly, daily and commit it has published. */
                    view?: "" | "releases" | "weekly" | "monthly" | "daily" | "commit" | "all";
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An HTML page. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Unknown project or entry: a small HTML page. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/c/{slug}/entries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Permalink page of one published entry (HTML)
         * @description Public HTML page of one entry. Drafts, archived entries and entries of other projects are 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An HTML page. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Unknown project or entry: a small HTML page. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/c/{slug}/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Release notes of a project (HTML)
         * @description Public HTML page of the published release notes, newest release first (Unreleased on top), 20 a page, each linking its permalink page. Links the release feeds. Part of the release-notes extension outside the API contract.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page of 20 release notes, 1 first. */
                    page?: number;
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An HTML page. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Unknown project or entry: a small HTML page. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/c/{slug}/releases/{tag}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Permalink page of one published release note (HTML)
         * @description Public HTML page of one release note by URL-encoded tag (`unreleased`: the Unreleased note). Drafts, archived notes and tags of other projects are 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                    /** @description Release tag, URL-encoded (`pkg%402.0.0`, `%40org%2Fpkg%401.0.0`), or `unreleased` for the Unreleased note. */
                    tag: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An HTML page. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Unknown project or entry: a small HTML page. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness check */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            nodeEnv: string;
                            service: string;
                            /** @description Always "ok" while the process serves requests. */
                            status: string;
                            /** Format: date-time */
                            timestamp: string;
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the published changelog of a project
         * @description Public. Sends `ETag` and `Cache-Control`; answers `If-None-Match` with 304. Unknown query parameters are ignored. Addition: `view` lists one kind of entry (`view=default`: what the project's public page shows first), as the `<changelog-feed>` widget does.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Addition: continue after the page that returned this `meta.next_cursor`. Stays fast at any depth, and does not skip or repeat entries when new ones are published between pages. */
                    cursor?: string;
                    /** @description Page size, in decimal digits (`1e1` or `0x10` is a 400). */
                    limit?: number;
                    /** @description Number of entries to skip (counted from `cursor` when one is given), in decimal digits. */
                    offset?: number;
                    /** @description Addition: one view of the changelog, as on the public page, instead of every entry type interleaved (where one change shows as its commit entry, in its week and in its month). `weekly`, `monthly`, `daily` or `commit` lists the entries of that `entry_type` only; `all` lists every type; `default` lists the entry view the project shows by default (its managers' choice, else the first of weekly, monthly, daily and commit it has published entries of), named in `meta.view`, and names the view the public page opens on in `meta.default_view` (`releases` when the project has published release notes and its managers chose nothing else). `releases` is not an entry view: release notes are listed by `GET /v1/changelog/{slug}/releases`. With a view, `meta.total` counts that view. Without this parameter the response is as it always was. */
                    view?: "default" | "weekly" | "monthly" | "daily" | "commit" | "all";
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Published entries, newest `published_at` first; ties by `id` descending. */
                            entries: components["schemas"]["ChangelogEntry"][];
                            meta: {
                                /** @description Number of entries in this page. */
                                count: number;
                                /**
                                 * @description Addition, only with `view=default`: the view the public page opens on. `releases` when it opens on release notes (not entries: list them with `GET /v1/changelog/{slug}/releases`, as the widget then does); `view` is then the entry view the project would show otherwise.
                                 * @enum {string}
                                 */
                                default_view?: "releases" | "weekly" | "monthly" | "daily" | "commit" | "all";
                                /** @description Addition: whether entries exist past this page. */
                                has_more: boolean;
                                limit: number;
                                /** @description Addition: pass as `cursor` for the next page; null on the last page. */
                                next_cursor: string | null;
                                offset: number;
                                /** @description Addition: number of published entries of the project (of the view listed, with `view`). */
                                total: number;
                                /**
                                 * @description Addition, only when `view` was given: the view listed. For `view=default`, the entry view the project shows by default (pass it as `view` for further pages, so that they stay in that view should the default change meanwhile).
                                 * @enum {string}
                                 */
                                view?: "weekly" | "monthly" | "daily" | "commit" | "all";
                            };
                            project: components["schemas"]["Project"];
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/changelog.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project's published release notes as a CHANGELOG.md (Keep a Changelog)
         * @description Public. The published release notes in the Keep a Changelog 1.1.0 layout: `# Changelog`, `## [Unreleased]` when the project published its Unreleased note, then `## [1.2.3] - YYYY-MM-DD` per release, newest first (a package's series by tag: `## [pkg@2.0.0]`), an editor's introduction under its heading, and the sections as `### Added` (features), `### Changed` (performance, refactoring, dependencies), `### Deprecated`, `### Fixed`, `### Security`; breaking changes lead under their own label and sections with no Keep a Changelog equivalent keep theirs. At most the 100 newest releases; a closing line counts the older ones and links the public release page. Link references (GitHub compare views) close the document when the project's pull-request URL names a GitHub repository. Only published notes, as published: drafts and pending revisions never appear. Sends `ETag`, `Last-Modified` and `Cache-Control`; answers `If-None-Match` or `If-Modified-Since` with 304. **Extension outside the API contract** (marked `x-extension`): release notes are not entries, and the contract's `entry_type` enum is unchanged.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The CHANGELOG.md document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/markdown": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/entries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One published entry of a project
         * @description Public. Drafts, archived entries and entries of other projects are 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entry: components["schemas"]["ChangelogEntry"];
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/feed.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Atom 1.0 feed of a project's changelog
         * @description Public. The 50 newest published entries of one view (`view`: the public page's default unless given; release notes in the `releases` view) as Atom 1.0 (RFC 4287), content rendered from Markdown to HTML (raw HTML in the source is escaped); titles render their inline Markdown in Atom (HTML titles) and are plain text in RSS and JSON Feed. An unknown `view` is a 400. Ids are `urn:uuid:<entry id>` (`<note id>` for release notes); links point to the entry on the public page `/c/{slug}`. Sends `ETag`, `Last-Modified` (the last change of any kind to what the feed lists: publish, unpublish, edit, archive, project name or theme) and `Cache-Control`; answers `If-None-Match` or `If-Modified-Since` with 304. Drafts never appear. Not part of the API contract: an addition.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Which view of the changelog the feed carries, as on the public page: `releases` (published release notes of tagged releases), one entry type (`weekly`, `monthly`, `daily`, `commit`) or `all` (every type interleaved). Default: the view the public page opens on (the project's choice, else releases once it has published the note of a tagged release, else the first of weekly, monthly, daily and commit it has published). */
                    view?: "releases" | "weekly" | "monthly" | "daily" | "commit" | "all";
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The Atom 1.0 document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/atom+xml": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/feed.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Feed 1.1 feed of a project's changelog
         * @description Public. The 50 newest published entries of one view (`view`: the public page's default unless given; release notes in the `releases` view) as JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/), content rendered from Markdown to HTML (raw HTML in the source is escaped); titles render their inline Markdown in Atom (HTML titles) and are plain text in RSS and JSON Feed. An unknown `view` is a 400. Ids are `urn:uuid:<entry id>` (`<note id>` for release notes); links point to the entry on the public page `/c/{slug}`. Sends `ETag`, `Last-Modified` (the last change of any kind to what the feed lists: publish, unpublish, edit, archive, project name or theme) and `Cache-Control`; answers `If-None-Match` or `If-Modified-Since` with 304. Drafts never appear. Not part of the API contract: an addition.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Which view of the changelog the feed carries, as on the public page: `releases` (published release notes of tagged releases), one entry type (`weekly`, `monthly`, `daily`, `commit`) or `all` (every type interleaved). Default: the view the public page opens on (the project's choice, else releases once it has published the note of a tagged release, else the first of weekly, monthly, daily and commit it has published). */
                    view?: "releases" | "weekly" | "monthly" | "daily" | "commit" | "all";
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The JSON Feed 1.1 document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/feed+json": Record<string, never>;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/feed.rss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RSS 2.0 feed of a project's changelog
         * @description Public. The 50 newest published entries of one view (`view`: the public page's default unless given; release notes in the `releases` view) as RSS 2.0 (https://www.rssboard.org/rss-specification), content rendered from Markdown to HTML (raw HTML in the source is escaped); titles render their inline Markdown in Atom (HTML titles) and are plain text in RSS and JSON Feed. An unknown `view` is a 400. Ids are `urn:uuid:<entry id>` (`<note id>` for release notes); links point to the entry on the public page `/c/{slug}`. Sends `ETag`, `Last-Modified` (the last change of any kind to what the feed lists: publish, unpublish, edit, archive, project name or theme) and `Cache-Control`; answers `If-None-Match` or `If-Modified-Since` with 304. Drafts never appear. Not part of the API contract: an addition.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Which view of the changelog the feed carries, as on the public page: `releases` (published release notes of tagged releases), one entry type (`weekly`, `monthly`, `daily`, `commit`) or `all` (every type interleaved). Default: the view the public page opens on (the project's choice, else releases once it has published the note of a tagged release, else the first of weekly, monthly, daily and commit it has published). */
                    view?: "releases" | "weekly" | "monthly" | "daily" | "commit" | "all";
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The RSS 2.0 document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/rss+xml": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the published release notes of a project
         * @description Public. One note per release tag (per package: `v1.2.0`, `pkg@2.0.0` are separate series) with what changed since the previous tag of its series, and an Unreleased note (`tag: null`) for what no root release contains yet. Newest `released_at` first, Unreleased on top; paginated like `GET /v1/changelog/{slug}` (`limit`, `offset`, `cursor`). Sends `ETag` and `Cache-Control`; answers `If-None-Match` with 304. **Extension outside the API contract** (marked `x-extension`): release notes are not entries, and the contract's `entry_type` enum is unchanged.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Addition: continue after the page that returned this `meta.next_cursor`. Stays fast at any depth, and does not skip or repeat entries when new ones are published between pages. */
                    cursor?: string;
                    /** @description Page size, in decimal digits (`1e1` or `0x10` is a 400). */
                    limit?: number;
                    /** @description Number of entries to skip (counted from `cursor` when one is given), in decimal digits. */
                    offset?: number;
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            meta: {
                                /** @description Number of release notes in this page. */
                                count: number;
                                /** @description Whether release notes exist past this page. */
                                has_more: boolean;
                                limit: number;
                                /** @description Pass as `cursor` for the next page; null on the last page. */
                                next_cursor: string | null;
                                offset: number;
                                /** @description Number of published release notes of the project. */
                                total: number;
                            };
                            project: components["schemas"]["Project"];
                            /** @description Published release notes, newest `released_at` first (Unreleased, which has none, on top); ties by `id` descending. */
                            releases: components["schemas"]["ReleaseNote"][];
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/releases.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Atom 1.0 feed of a project's release notes
         * @description Public. The 50 newest published release notes of tagged releases (Unreleased is left out) as Atom 1.0, newest release first; ids are `urn:uuid:<note id>`, links point to `/c/{slug}/releases/{tag}`. Sends `ETag`, `Last-Modified` and `Cache-Control`; answers 304. Part of the release-notes extension outside the API contract.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The Atom 1.0 document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/atom+xml": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/releases.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Feed 1.1 feed of a project's release notes
         * @description Public. The 50 newest published release notes of tagged releases (Unreleased is left out) as JSON Feed 1.1, newest release first; ids are `urn:uuid:<note id>`, links point to `/c/{slug}/releases/{tag}`. Sends `ETag`, `Last-Modified` and `Cache-Control`; answers 304. Part of the release-notes extension outside the API contract.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The JSON Feed 1.1 document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/feed+json": Record<string, never>;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/releases.rss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RSS 2.0 feed of a project's release notes
         * @description Public. The 50 newest published release notes of tagged releases (Unreleased is left out) as RSS 2.0, newest release first; ids are `urn:uuid:<note id>`, links point to `/c/{slug}/releases/{tag}`. Sends `ETag`, `Last-Modified` and `Cache-Control`; answers 304. Part of the release-notes extension outside the API contract.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The RSS 2.0 document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/rss+xml": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog/{slug}/releases/{tag}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One published release note of a project, by tag
         * @description Public. The tag is URL-encoded; `unreleased` is the Unreleased note. Drafts, archived notes, unknown tags and tags of other projects are 404. **Extension outside the API contract** (marked `x-extension`): release notes are not entries, and the contract's `entry_type` enum is unchanged.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                    /** @description Release tag, URL-encoded (`pkg%402.0.0`, `%40org%2Fpkg%401.0.0`), or `unreleased` for the Unreleased note. */
                    tag: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            release: components["schemas"]["ReleaseNote"];
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the projects the caller may see, with their newest published entries
         * @description Projects are ordered by slug. Each project lists at most `entries_limit` published entries, newest `published_at` first, ties by `id` descending. Every invalid credential (malformed, unknown, revoked, deleted or expired key) gets the same 401.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Maximum number of published entries per project, in decimal digits. */
                    entries_limit?: number;
                };
                header?: {
                    /** @description Shared secret proving the request came from the trusted gateway. */
                    "x-gateway-secret"?: string;
                    /** @description User id (uuid) asserted by a trusted gateway; lists that user's personal projects. Honoured only when the operator sets IDENTITY_HEADER_ENABLED and the request carries X-Gateway-Secret; otherwise ignored. An API key, when present, takes precedence. */
                    "x-identity-user-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            meta: {
                                /** @description Number of projects returned. */
                                count: number;
                                entries_limit: number;
                            };
                            projects: components["schemas"]["ProjectSummary"][];
                        };
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{projectId}/repos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link a GitHub repository to a project
         * @description The key must see the project and own the installation (same context); otherwise 404, revealing nothing. The installation must be able to reach the repository (`GET /repos/{owner}/{repo}` with an installation token); otherwise 422. Linking the same repository and branch again returns the existing link (200, same id). A new link queues the backfill of the tracked branch (status `pending`). The key is checked before the body is read. Errors: 400 bad body (unknown fields, names, branch; at most 20 `details`); 401 missing or invalid key (Bearer only); 404 project or installation not found; 413 body over 16 KiB; 422 repository unreachable, installation suspended, or no such branch (the message names the default branch); 429 too many links for the project's owner (`RATE_LIMIT_TENANT_ACTIONS_MAX`, all its keys together; `Retry-After`); 502 GitHub unreachable, erroring or over `GITHUB_TIMEOUT_MS`; 503 the GitHub App is not configured.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Branch patterns whose tags make release notes too (`*.x`, `release/*`): letters, digits, `.`, `_`, `-`, `+`, `/` and at most one `*`; linking the same repository and branch again with other patterns replaces them. Default: none. */
                        releaseBranches?: string[];
                        /** @description Letters, digits, `.`, `_`, `-`; ≤ 100; not `.` or `..`. */
                        repoName: string;
                        /** @description GitHub account: letters, digits, single hyphens, ≤ 39. */
                        repoOwner: string;
                        /**
                         * Format: uuid
                         * @description Our id of the GitHub installation (`installationId` of GET /v1/scm/callback).
                         */
                        scmInstallationId: string;
                        /**
                         * @description A valid git branch name (the rules of `git check-ref-format --branch`).
                         * @default main
                         */
                        trackedBranch: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RepoLink"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/drafts/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Entries waiting for a publish: drafts, and published entries with a pending revision
         * @description What the review queue shows as `draft`, newest first by each entry's own date; page with `after`. Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Continue after the page that returned this `next`. */
                    after?: string;
                    /** @description Page size (1 to 500), in decimal digits. */
                    limit?: number;
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Drafts and published entries with a pending revision, newest first by their own date. */
                            entries: {
                                /** @description What publishing it would make public, as of this answer. Send it back as `?content_version=` with the publish to publish only that: if new commits or an editor changed it since, the publish is refused (409) and nothing changes. */
                                content_version: string;
                                /** Format: date-time */
                                date: string;
                                /** @description A person edited its text. */
                                edited: boolean;
                                /** @enum {string} */
                                entry_type: "commit" | "daily" | "weekly" | "monthly";
                                /** Format: uuid */
                                id: string;
                                /** @description Published, with new generated content waiting: publishing it makes that content public. */
                                pending_revision: boolean;
                                /** Format: date-time */
                                published_at: string | null;
                                /**
                                 * @description `draft`, or `published` with a pending revision.
                                 * @enum {string}
                                 */
                                status: "draft" | "published" | "archived";
                                title: string | null;
                                /** Format: date-time */
                                updated_at: string;
                                version_label: string | null;
                            }[];
                            /** @description Pass as `after` for the next page; null on the last page. */
                            next: string | null;
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/drafts/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Release notes waiting for a publish: drafts, and published notes with a pending revision
         * @description Newest release first, the Unreleased note on top; page with `after`. Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Continue after the page that returned this `next`. */
                    after?: string;
                    /** @description Page size (1 to 500), in decimal digits. */
                    limit?: number;
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Pass as `after` for the next page; null on the last page. */
                            next: string | null;
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                            /** @description Draft notes and published ones with a pending revision, newest release first, Unreleased on top. */
                            releases: {
                                /** @description What publishing it would make public, as of this answer. Send it back as `?content_version=` with the publish to publish only that: if new commits or an editor changed it since, the publish is refused (409) and nothing changes. */
                                content_version: string;
                                /** @description An editor changed what it shows (release editor). */
                                edited: boolean;
                                /** @description Items of its sections. */
                                items: number;
                                pending_revision: boolean;
                                prerelease: boolean;
                                previous_tag: string | null;
                                /** Format: date-time */
                                published_at: string | null;
                                /** Format: date-time */
                                released_at: string | null;
                                /**
                                 * @description `draft`, or `published` with a pending revision.
                                 * @enum {string}
                                 */
                                status: "draft" | "published" | "archived";
                                /** @description Null for the Unreleased note (addressed as `unreleased`). */
                                tag: string | null;
                                title: string;
                                version: string | null;
                            }[];
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/entries/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish an entry (a draft, or the pending revision of a published one)
         * @description Publishing what is already published, with nothing waiting, changes nothing and answers the same. The same publication as the dashboard and `changelog entries publish`. Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        post: {
            parameters: {
                query?: {
                    /** @description From the pending list: publish only if the content is still that. */
                    content_version?: string;
                };
                header?: never;
                path: {
                    id: string;
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entry: {
                                /** Format: uuid */
                                id: string;
                                /** Format: date-time */
                                published_at: string | null;
                                /** @enum {string} */
                                status: "draft" | "published" | "archived";
                                /** Format: date-time */
                                updated_at: string;
                            };
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/entries/{id}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unpublish an entry (back to draft)
         * @description Readers stop seeing it at once; a pending revision becomes the draft's content. The same publication as the dashboard and `changelog entries unpublish`. Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entry: {
                                /** Format: uuid */
                                id: string;
                                /** Format: date-time */
                                published_at: string | null;
                                /** @enum {string} */
                                status: "draft" | "published" | "archived";
                                /** Format: date-time */
                                updated_at: string;
                            };
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/releases/{tag}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a release note by tag, with its pending revision
         * @description The tag is URL-encoded (`pkg%402.0.0`); `unreleased` is the Unreleased note. The same publication as the dashboard and `changelog entries publish-release`. Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        post: {
            parameters: {
                query?: {
                    /** @description From the pending list: publish only if the content is still that. */
                    content_version?: string;
                };
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                    /** @description Release tag, URL-encoded (`pkg%402.0.0`, `%40org%2Fpkg%401.0.0`), or `unreleased` for the Unreleased note. */
                    tag: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                            release: {
                                /** Format: date-time */
                                published_at: string | null;
                                /** @enum {string} */
                                status: "draft" | "published" | "archived";
                                tag: string | null;
                                /** @description Where readers see it (the public API route of the note). */
                                url: string;
                            };
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/releases/{tag}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unpublish a release note by tag (back to draft)
         * @description The tag is URL-encoded (`pkg%402.0.0`); `unreleased` is the Unreleased note. The same publication as the dashboard and `changelog entries unpublish-release`. Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                    /** @description Release tag, URL-encoded (`pkg%402.0.0`, `%40org%2Fpkg%401.0.0`), or `unreleased` for the Unreleased note. */
                    tag: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                            release: {
                                /** Format: date-time */
                                published_at: string | null;
                                /** @enum {string} */
                                status: "draft" | "published" | "archived";
                                tag: string | null;
                                /** @description Where readers see it (the public API route of the note). */
                                url: string;
                            };
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/releases/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview the release note a ref would produce (stored nowhere)
         * @description From the synced history up to `ref`, with the project's settings and the generator of a real run, in a worker thread under `GENERATION_TIME_BUDGET_MS` (503 past it). 409: `tag` already names another commit. 422: `ref` is not a tag or commit of the synced history (push and sync first), or there is no note to show. 429: too many previews for the project's owner (`RATE_LIMIT_TENANT_ACTIONS_MAX`, with the dashboard's settings previews; `Retry-After`). Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A tag, or a full or abbreviated (7+ hex digits) SHA, of the synced history. */
                        ref: string;
                        /** @description Preview the release as if `ref` were tagged this (the tag about to be pushed). Without it: the note of `ref` when it is a tag, else what would be Unreleased at `ref`. */
                        tag?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            preview: {
                                /** @description Commits the note lists. */
                                commits: number;
                                /** @description Markdown, as the generated note reads (the renderer of a publish). */
                                content: string;
                                prerelease: boolean;
                                previous_tag: string | null;
                                /** @description The commit `ref` named. */
                                sha: string;
                                tag: string | null;
                                title: string;
                                version: string | null;
                            };
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{slug}/repos/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync a repository link now (queue its ingest; generation follows)
         * @description Answers 202 once the ingest is queued; one waits at most, whatever the calls. 422: the link is suspended (its GitHub installation is). 429: too many syncs for the project's owner (`RATE_LIMIT_TENANT_ACTIONS_MAX` per `RATE_LIMIT_TENANT_ACTIONS_WINDOW_MS`, all its keys and members together, "Sync now" included; `Retry-After`). Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected projects), or an id or tag that is not the project's (the same answer as for one that does not exist).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404. */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            link: {
                                /** Format: uuid */
                                id: string;
                            };
                            project: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                            /**
                             * @description The ingest is queued (one waits at most, whatever the calls).
                             * @enum {boolean}
                             */
                            queued: true;
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scm/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Record a GitHub App installation (the app's setup URL lands here)
         * @description Records the installation for the API key's context once the caller proves it may: GitHub knows anyone's installation ids and the setup URL can be forged, so the id alone proves nothing. Proof is one of: `code` (the app requests user authorization during installation; the code is exchanged for a user token and `GET /user/installations` must list the installation); the context's GitHub account verified once in the dashboard (Settings → GitHub), when the installation is on that account or an organization it administers; or the installation's account listed in `GITHUB_TRUSTED_ACCOUNTS` (self-hosting). One record per GitHub installation; calling again (e.g. `setup_action=update`) updates it and returns the same `installationId`. The account login and type come from GitHub, never from the query. `setup_action=request` (an organization owner has yet to approve) records nothing and answers 202. Errors: 400 bad parameters; 401 missing or invalid key (Bearer only; X-API-KEY is not accepted here); 403 the key is limited to selected projects, or no proof (the same answer whether or not the installation exists), or GitHub refused the code; 409 the installation is recorded for another context; 429 too many calls for the key's context (`RATE_LIMIT_TENANT_ACTIONS_MAX`, all its keys together; `Retry-After`); 502 GitHub unreachable, erroring or over `GITHUB_TIMEOUT_MS`; 503 the GitHub App (or, with `code`, its OAuth client) is not configured.
         */
        get: {
            parameters: {
                query: {
                    /** @description The user authorization code GitHub adds when the app requests user authorization (OAuth) during installation: proof that the installing GitHub user has access to the installation. Single use. */
                    code?: string;
                    /** @description GitHub's installation id. */
                    installation_id: number;
                    /** @description As GitHub sends it: install, update or request (awaiting approval). */
                    setup_action: "install" | "update" | "request";
                    /** @description Echoed by GitHub from the install URL; accepted and not interpreted here (it is the integrator's own CSRF value to check). */
                    state?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accountLogin: string;
                            /** @description User or Organization, as GitHub reports it. */
                            accountType: string;
                            /** Format: uuid */
                            installationId: string;
                            /** @description Dashboard page to send the user to (built from PUBLIC_URL). */
                            redirectUrl: string;
                            scmInstallationId: number;
                            setupAction: string;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @enum {boolean} */
                            recorded: false;
                            redirectUrl: string;
                            scmInstallationId: number;
                            /** @enum {string} */
                            setupAction: "request";
                        };
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The embeddable <changelog-feed> web component
         * @description Public JavaScript, no dependencies: `<script src="{server}/widget.js" defer></script>` then `<changelog-feed project="slug" limit="10"></changelog-feed>`. It reads `GET /v1/changelog/{slug}` from the server it was loaded from (or its `server` attribute), one view at a time as the public page: the project's default view (`view=default`; when `meta.default_view` is `releases` it reads `GET /v1/changelog/{slug}/releases` instead) unless the embedder sets `view="releases"` (release notes), `view="weekly"` (or `monthly`, `daily`, `commit`: that entry type only), `view="all"` (every entry) or `type="weekly"` (the same as `view="weekly"`; `view` wins). Each change shows once, in its section; titles and items render code spans and emphasis (a link in commit text stays text); dates are a rollup's period start or a release's date, in the reader's locale. Sends `ETag`; answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The script. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/javascript": string;
                    };
                };
                /** @description Not Modified: the If-None-Match ETag (or, where the route sends Last-Modified, the If-Modified-Since date) is current; no body. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Every error body. 5xx bodies never carry details or internals. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ChangelogEntry: {
            /** Format: uuid */
            commit_id: string | null;
            commit_shas: string[];
            component_tags: string[];
            /** @description Markdown body. */
            content: string | null;
            /** Format: date-time */
            created_at: string;
            entry_type: "commit" | "daily" | "weekly" | "monthly";
            generated_json: components["schemas"]["GeneratedJson"] | null;
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            period_end: string | null;
            /** Format: date-time */
            period_start: string | null;
            /** Format: uuid */
            project_id: string;
            /** Format: date-time */
            published_at: string | null;
            /** @description Lifecycle: draft → published ⇄ draft, any → archived. Public routes only ever return published. */
            status: "draft" | "published" | "archived";
            team_attribution: string | null;
            title: string | null;
            /** Format: date-time */
            updated_at: string;
            version_label: string | null;
        };
        ErrorDetail: {
            /** @description Part of the request: querystring, params, body or headers. */
            in?: string;
            message: string;
            /** @description The offending parameter or body field. */
            parameter?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description Every error body. 5xx bodies never carry details or internals. */
        ErrorResponse: {
            /** @description Machine-readable code (an addition to the contract): invalid_request, unauthorized, not_found, payload_too_large, rate_limited, internal, unavailable, … */
            code?: string;
            details?: components["schemas"]["ErrorDetail"][];
            /** @description Human-readable description of the problem. */
            error: string;
        };
        /** @description Structured form of an entry, from which `content` is rendered. */
        GeneratedJson: {
            component_tags: string[];
            headline_items: components["schemas"]["HeadlineItem"][];
            sections: components["schemas"]["Section"][];
            team_attribution: string | null;
            title: string;
        };
        HeadlineItem: {
            body: string | null;
            section_type_key: string;
            title: string;
        };
        Project: {
            /** Format: uuid */
            id: string;
            name: string;
            slug: string;
        };
        ProjectSummary: {
            /** @description Published entries only, newest first. */
            changelog_entries: components["schemas"]["ChangelogEntry"][];
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            owner_id: string;
            owner_type: "user" | "org";
            slug: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description Extension outside the contract: the changes between a release tag and the previous tag of its series, structured like a rollup entry, or the Unreleased changes after the newest root release. */
        ReleaseNote: {
            /** @description The commits the note lists. */
            commit_shas: string[];
            component_tags: string[];
            /** @description Markdown rendered from `generated_json`, after the `introduction` when the note has one. */
            content: string;
            generated_json: components["schemas"]["GeneratedJson"];
            /** Format: uuid */
            id: string;
            /** @description An editor's introduction to the release (Markdown), written in the dashboard's release editor; null: none. `content` starts with it. Added by the release editor; clients that do not know it can ignore it. */
            introduction: string | null;
            /** @description The package of the tag's series (`pkg@1.2.0` → `pkg`); null for the root package. */
            package: string | null;
            prerelease: boolean;
            /** @description The tag this note counts from: the highest lower version of the same series in its history (for a final release, the previous final release, so the note covers its pre-releases). For Unreleased, the newest root release. */
            previous_tag: string | null;
            /** Format: uuid */
            project_id: string;
            /** Format: date-time */
            published_at: string;
            /**
             * Format: date-time
             * @description When the tagged commit was released; null for Unreleased.
             */
            released_at: string | null;
            /** @description The release tag; null for the Unreleased note (addressed as `unreleased`). */
            tag: string | null;
            team_attribution: string | null;
            title: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Semantic version of the tag; null for Unreleased. */
            version: string | null;
        };
        RepoLink: {
            /** Format: date-time */
            createdAt: string;
            /** @description The repository's default branch on GitHub. */
            defaultBranch: string | null;
            /** Format: uuid */
            id: string;
            /** @description github, or local (linked from the CLI). */
            kind: "github" | "local";
            /** @description With status error, why the last ingest failed (a git command that timed out says so); with status active, what it left out (more tags, or more matching release branches, than it reads). */
            lastError: string | null;
            /** Format: date-time */
            lastIngestedAt: string | null;
            /** @description Tip of the tracked branch at the last completed ingest. */
            lastIngestedSha: string | null;
            /** Format: uuid */
            projectId: string;
            /** @description Branch patterns (`*.x`, `release/*`) whose tags make release notes beside the tracked branch; entries and rollups stay on the tracked branch. */
            releaseBranches: string[];
            repoName: string | null;
            repoOwner: string | null;
            /** Format: uuid */
            scmInstallationId: string | null;
            /** @description pending (backfill queued), ingesting, active (up to date with the last push), error (the last ingest failed; it is retried with backoff; see lastError), suspended (the GitHub installation was suspended or removed). */
            status: "pending" | "ingesting" | "active" | "error" | "suspended";
            trackedBranch: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Section: {
            items: components["schemas"]["SectionItem"][];
            label: string;
            section_type_key: string;
        };
        SectionItem: {
            component: string | null;
            text: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
