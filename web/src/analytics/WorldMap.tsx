// Clicks by country on a world map: world-atlas's 110m countries (bundled, loaded with this
// module only) projected with d3-geo. The server names countries in English (Intl region
// names), so the map finds each country by the same name.
import { geoNaturalEarth1, geoPath } from 'd3-geo'
import { useMemo } from 'react'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import world from 'world-atlas/countries-110m.json'
import { ALPHA2_BY_NUMERIC, countryName } from '../components/country-codes'

const WIDTH = 960

interface CountryShape {
  name: string
  path: string
}

const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>
const allCountries = feature(topology, topology.objects.countries)
// Antarctica gets no clicks and would take a fifth of the height.
const countries = { ...allCountries, features: allCountries.features.filter((shape) => shape.properties?.name !== 'Antarctica') }
// Centred on 10°E so the antimeridian's cut runs through the Bering Strait, not through Chukotka and Fiji.
const projection = geoNaturalEarth1().rotate([-10, 0]).fitWidth(WIDTH, countries)
const toPath = geoPath(projection)
const HEIGHT = Math.ceil(toPath.bounds(countries)[1][1])

/** Every country's outline once, named as the statistics name it. */
const SHAPES: CountryShape[] = countries.features
  .map((shape) => {
    const code = shape.id === undefined ? (shape.properties?.name === 'Kosovo' ? 'XK' : undefined) : ALPHA2_BY_NUMERIC.get(String(shape.id))
    return { name: code ? countryName(code) : (shape.properties?.name ?? ''), path: toPath(shape) ?? '' }
  })

/** `onSelect`: a country with clicks was clicked (the page adds it as a filter; the ranked list beside it does the same by keyboard). */
export default function WorldMap({ counts, onSelect }: { counts: Record<string, number>; onSelect?: (country: string) => void }) {
  const max = Math.max(1, ...Object.values(counts))
  const shaded = useMemo(() => SHAPES.map((shape) => ({ ...shape, clicks: counts[shape.name] ?? 0 })), [counts])
  return (
    <svg className="world-map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} style={{ aspectRatio: `${WIDTH} / ${HEIGHT}` }} role="img" aria-label="Map of clicks by country">
      {shaded.map((shape, index) => (
        <path
          key={index}
          d={shape.path}
          fill={shape.clicks > 0 ? `rgba(79, 70, 229, ${0.2 + 0.8 * Math.sqrt(shape.clicks / max)})` : '#e8ebf2'}
          stroke="#fff"
          strokeWidth={0.5}
          className={onSelect && shape.clicks > 0 ? 'selectable' : undefined}
          onClick={onSelect && shape.clicks > 0 ? () => onSelect(shape.name) : undefined}
        >
          <title>{`${shape.name}: ${shape.clicks} click${shape.clicks === 1 ? '' : 's'}`}</title>
        </path>
      ))}
    </svg>
  )
}
