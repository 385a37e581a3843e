import { useEffect } from 'react';

export interface PageMeta {
  title: string;
  description: string;
  keywords?: string;
  robots: 'index, follow' | 'noindex, nofollow';
}

function setMeta(attribute: 'name' | 'property', key: string, content: string | undefined) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!content) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.setAttribute('content', content);
}

/** Writes a page's title, description, keywords, robots and social-card tags into the document head. */
export function usePageMeta(meta: PageMeta) {
  const { title, description, keywords, robots } = meta;
  useEffect(
    () => writePageMeta({ title, description, keywords, robots }),
    [title, description, keywords, robots],
  );
}

/** The tags usePageMeta writes, written once. */
export function writePageMeta({ title, description, keywords, robots }: PageMeta): void {
  document.title = title;
  setMeta('name', 'description', description);
  setMeta('name', 'keywords', keywords);
  setMeta('name', 'robots', robots);
  setMeta('property', 'og:title', title);
  setMeta('property', 'og:description', description);
  setMeta('property', 'og:type', 'website');
  setMeta('property', 'og:site_name', 'Tambari');
  setMeta('name', 'twitter:card', 'summary_large_image');
  setMeta('name', 'twitter:title', title);
  setMeta('name', 'twitter:description', description);
}
