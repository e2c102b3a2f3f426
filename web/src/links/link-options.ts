// What a link can point at besides its destination: the account's branded domains, campaigns,
// channels, pixels, splash pages and overlays, and the UTM templates it can apply (first 100 of
// each, the API's largest page).
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

const page = { params: { query: { limit: 100 } } }

export function useDomains() {
  return useQuery({ queryKey: ['domains'], queryFn: async () => (await unwrap(api.GET('/api/domains', page))).data.domains, staleTime: 5 * 60_000 })
}

export function useCampaigns() {
  return useQuery({ queryKey: ['campaigns'], queryFn: async () => (await unwrap(api.GET('/api/campaigns', page))).data.campaigns, staleTime: 5 * 60_000 })
}

export function useChannels() {
  return useQuery({ queryKey: ['channels'], queryFn: async () => (await unwrap(api.GET('/api/channels', page))).data.channels, staleTime: 5 * 60_000 })
}

export function usePixels() {
  return useQuery({ queryKey: ['pixels'], queryFn: async () => (await unwrap(api.GET('/api/pixels', page))).data.pixels, staleTime: 5 * 60_000 })
}

export function useSplashPages() {
  return useQuery({ queryKey: ['splash'], queryFn: async () => (await unwrap(api.GET('/api/splash', page))).data.splash, staleTime: 5 * 60_000 })
}

export function useOverlays() {
  return useQuery({ queryKey: ['overlays'], queryFn: async () => (await unwrap(api.GET('/api/overlay', page))).data.cta, staleTime: 5 * 60_000 })
}

export function useUtmTemplates() {
  return useQuery({ queryKey: ['utm-templates'], queryFn: async () => (await unwrap(api.GET('/api/utm-templates', page))).data.templates, staleTime: 5 * 60_000 })
}
