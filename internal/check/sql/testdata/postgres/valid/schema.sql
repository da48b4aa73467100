--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET client_encoding = 'UTF8';
SELECT pg_catalog.set_config('search_path', '', false);
\connect shop

CREATE EXTENSION IF NOT EXISTS citext WITH SCHEMA public;

CREATE TYPE public.order_status AS ENUM (
    'pending',
    'paid',
    'shipped'
);

CREATE TABLE public.orders (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    status public.order_status DEFAULT 'pending'::public.order_status NOT NULL,
    total_cents integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE public.orders_id_seq START WITH 1 INCREMENT BY 1 NO MINVALUE NO MAXVALUE CACHE 1;
ALTER SEQUENCE public.orders_id_seq OWNED BY public.orders.id;
ALTER TABLE ONLY public.orders ALTER COLUMN id SET DEFAULT nextval('public.orders_id_seq'::regclass);

COPY public.orders (id, account_id, status, total_cents, created_at) FROM stdin;
1	1	paid	1999	2024-01-05 10:00:00+00
2	1	pending	500	2024-01-06 11:30:00+00
\.

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_pkey PRIMARY KEY (id);

CREATE INDEX orders_created_idx ON public.orders USING btree (created_at);
